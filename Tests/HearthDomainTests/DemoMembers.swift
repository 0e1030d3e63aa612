import Foundation
@testable import HearthDomain

/// The demo family's members as plain values, for rules tests without a database: a test class
/// that conforms has `lisa` (owner), `tom` (co-parent), `emma` and `jake` (children) and `sue`
/// (Grandma Sue, a viewer).
protocol DemoMembers {}

extension DemoMembers {
    var lisa: Member { Member(id: MemberID("lisa"), name: "Lisa", kind: .adult, role: .owner) }
    var tom: Member { Member(id: MemberID("tom"), name: "Tom", kind: .adult, role: .coParent) }
    var emma: Member { Member(id: MemberID("emma"), name: "Emma", kind: .child, role: .member) }
    var jake: Member { Member(id: MemberID("jake"), name: "Jake", kind: .child, role: .member) }
    var sue: Member { Member(id: MemberID("sue"), name: "Grandma Sue", kind: .adult, role: .viewer) }
    var roster: Roster { Roster(members: [lisa, tom, emma, jake, sue]) }
}
