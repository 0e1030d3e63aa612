import Foundation

/// The household permission table (seed 001 roles, issue 9): which kind of member may do each
/// atomic action of every area. Every area's rules (`ChoreRules`, `CalendarRules`, `MessageRules`,
/// `ReminderRules`, `CheckInRules`, `Timetable`, `LocationRules`, `FamilyRules`) ask this table
/// first and then add what depends on the thing itself (whose chore, whose event, whom a check-in
/// is for), so the skills enforce it for the acting member whatever front end or parser called them.
///
/// In short: the owner may do everything; a co-parent everything but invite, add or remove
/// co-parents and delete the family; another adult (an au pair, the `member` role) runs the
/// day-to-day (chores, points, reminders, check-ins) but not the family itself; a viewer reads the
/// calendar, the chores and what is sent or shared with them, and changes nothing of the family's;
/// a child checks off their own chores, reads the family calendar, messages, answers check-ins and
/// sees and spends their own points. One rule stands above every role: nobody sees a location its
/// owner has not shared with them (`locationSeeUnshared` is refused to all, the owner included).
public enum Permissions {
    /// The atomic actions, area by area. "Own" actions act on the actor themself; the matching
    /// "Others" action on anyone else.
    public enum Action: String, CaseIterable, Sendable, Codable {
        // Calendar
        case calendarRead, calendarCreate, calendarCreateForOthers, calendarEdit, calendarEditOthers
        // Reminders
        case reminderForSelf, reminderForOthers, reminderSeeOthers
        // Chores
        case choreRead, choreAssign, choreCompleteOwn, choreCompleteOthers, choreReview, choreSkip, chorePause, choreReviewPolicy, choreEdit, choreProposeOwn
        // Points and rewards
        case pointsSeeOwn, pointsSeeOthers, pointsAdjust
        case rewardManage, rewardRedeemOwn, rewardRedeemForOthers, rewardApprove
        // Messages
        case messageSend, messageRead
        // Check-ins and statuses
        case checkInAsk, checkInAnswer, checkInWatch, statusSet
        // Location
        case locationSeeShared, locationSeeUnshared, locationSetOwnSharing
        /// A position reported for another member (their own phone reports theirs; `locationReportOwn`).
        case locationReportOwn, locationReportOthers
        // School timetables
        case timetableReadOwn, timetableReadOthers, timetableEditOwn, timetableEdit, timetableSetWeek
        /// The family's school calendar (what "except school holidays" skips): shared by every series.
        case schoolHolidayEdit
        // The family itself
        case memberAdd, memberRemove, coParentAdd, coParentRemove, invite, placeManage, familyDelete, activityRead, export
        /// The lines of the family's log one made oneself ("what did I just do"): anyone's own.
        case activityReadOwn
        /// Another member's details (home time zone, age, name), a word the whole family uses for
        /// someone, or a word another member uses (issue 32). A member's role is `memberRoleChange`.
        case memberEdit
        /// Whether one is told of the other parents' changes (seed 001): a parent's own choice.
        case parentUpdates
        /// Whether one is reminded of the events one books for others (issue 32): one's own choice.
        case bookedReminders
        /// Making a member a viewer, a co-parent, an adult member or a child: the owner's call.
        case memberRoleChange
        /// The words a member themself uses for the others ("call Lisa mum" from Emma): their own.
        case memberOwnWords
        /// Taking a member's access away without deleting anything, and giving it back (seed 004
        /// "revoke access"; `AccountRules` adds: never the owner, never oneself, a co-parent's by the owner).
        case memberAccess
        // Sign-in: anyone sets their own PIN; these are another member's PIN and the family's PIN requirement
        case pinSetOthers, pinRequire
        /// The household device (the member a shared device with no speaker acts as) and local-admin mode.
        case householdDevice
        /// Handing out every member's due notifications at once (`hearth tick`, the protocol's `tick`).
        case outboxDeliver
        /// Device tokens for the home service's HTTP API (`hearth device add|list|revoke`).
        case deviceManage
        /// Read-only calendar feed links (`hearth feed add|list|revoke`, `GET /v1/calendar/{name}.ics`).
        case feedManage
        /// A copy of the whole database (`hearth backup`): every member's data, PIN hashes included.
        case backup
        /// Where members' notifications are pushed (`hearth push add|list|remove`): message texts leave the house.
        case pushManage
        /// Two-way sync with a CalDAV server (`hearth caldav add|list|remove|sync`): the calendar leaves the house, a password is kept.
        case caldavSync
        /// The family's shopping list (issue 28's proof area): everyone reads it, everyone who takes
        /// part adds to it, a child crosses off what they added, a parent or adult anything, and
        /// only they clear it.
        case shoppingRead, shoppingAdd, shoppingRemoveOwn, shoppingRemove, shoppingClear
    }

    /// What the table distinguishes about a member. A child is a child whatever their role row says.
    public enum Role: String, CaseIterable, Sendable {
        case owner, coParent = "co-parent", adult, viewer, child

        public static func of(_ member: Member) -> Role {
            if member.kind == .child { return .child }
            switch member.role {
            case .owner: return .owner
            case .coParent: return .coParent
            case .viewer: return .viewer
            case .member: return .adult
            }
        }
    }

    /// A refused action: the sentence to say.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public let text: String
        public init(_ text: String) { self.text = text }
        public var description: String { text }
    }

    /// The table itself: the roles allowed each action.
    public static func allowed(_ action: Action) -> Set<Role> {
        let everyone: Set<Role> = [.owner, .coParent, .adult, .viewer, .child]
        let family: Set<Role> = [.owner, .coParent, .adult, .child]  // everyone who takes part, not a viewer
        let parents: Set<Role> = [.owner, .coParent, .adult]  // the adults who run the day-to-day
        let managers: Set<Role> = [.owner, .coParent]
        let owner: Set<Role> = [.owner]
        switch action {
        case .calendarRead: return everyone
        case .calendarCreate, .calendarEdit: return family
        case .calendarCreateForOthers, .calendarEditOthers: return parents
        case .reminderForSelf: return everyone
        case .reminderForOthers, .reminderSeeOthers: return parents
        case .choreRead: return everyone
        case .choreCompleteOwn, .choreProposeOwn: return family
        case .choreAssign, .choreCompleteOthers, .choreReview, .choreSkip, .chorePause, .choreReviewPolicy, .choreEdit: return parents
        case .pointsSeeOwn: return everyone
        case .pointsSeeOthers: return [.owner, .coParent, .adult, .viewer]
        case .pointsAdjust: return parents
        case .rewardRedeemOwn: return family
        case .rewardManage, .rewardRedeemForOthers, .rewardApprove: return parents
        case .messageSend: return family
        case .messageRead: return everyone
        case .checkInAsk, .checkInWatch, .statusSet: return family
        case .checkInAnswer: return everyone
        case .locationSeeShared, .locationSetOwnSharing: return everyone
        case .locationSeeUnshared: return []
        case .locationReportOwn: return everyone
        case .locationReportOthers: return owner
        case .timetableReadOwn, .timetableEditOwn: return everyone
        case .timetableReadOthers: return [.owner, .coParent, .adult, .viewer]
        case .timetableEdit: return managers
        case .timetableSetWeek: return family
        case .schoolHolidayEdit: return parents
        case .memberAdd, .memberRemove, .placeManage, .activityRead, .export, .pinSetOthers, .pinRequire: return managers
        case .coParentAdd, .coParentRemove, .invite, .familyDelete, .householdDevice: return owner
        case .memberEdit: return managers
        case .parentUpdates: return managers
        case .bookedReminders: return parents
        case .memberAccess: return managers
        case .memberRoleChange: return owner
        case .memberOwnWords: return everyone
        case .activityReadOwn: return everyone
        case .outboxDeliver: return managers
        case .deviceManage: return managers
        case .feedManage: return managers
        case .backup: return managers
        case .pushManage: return managers
        case .caldavSync: return managers
        case .shoppingRead: return everyone
        case .shoppingAdd, .shoppingRemoveOwn: return family
        case .shoppingRemove, .shoppingClear: return parents
        }
    }

    public static func allows(_ role: Role, _ action: Action) -> Bool { allowed(action).contains(role) }

    /// Whether `actor` may do `action`: nil when they may, else the refusal to say.
    public static func check(actor: Member, action: Action) -> Refusal? {
        let role = Role.of(actor)
        return allows(role, action) ? nil : Refusal(refusalText(action, role: role, actor: actor))
    }

    /// The words of a refusal. Where an area had its own wording before the table, it is kept.
    static func refusalText(_ action: Action, role: Role, actor: Member) -> String {
        let viewer = role == .viewer
        switch action {
        case .calendarRead: return "You can't see the family calendar."
        case .calendarCreate, .calendarEdit:
            return viewer ? "\(actor.name) can view the calendar but not change it." : "Only a parent can change the calendar."
        case .calendarCreateForOthers:
            return viewer ? "\(actor.name) can view the calendar but not change it." : "Only a parent can add events for other family members."
        case .calendarEditOthers:
            return viewer ? "\(actor.name) can view the calendar but not change it." : "Only a parent can change that. Ask a parent to do it."
        case .reminderForSelf: return "You can't set reminders."
        case .reminderForOthers:
            return viewer ? "You can set reminders only for yourself."
                : "You can set reminders for yourself, but only a parent can set them for others."
        case .reminderSeeOthers: return "You can only see your own reminders."
        case .choreRead: return "You can't see the family's chores."
        case .choreAssign: return viewer ? "You can see chores, but only a parent can assign them." : "Only a parent can assign chores."
        case .choreCompleteOwn: return "You can see chores, but only the family can check them off."
        case .choreCompleteOthers:
            return viewer ? "You can see chores, but as a viewer you can't check them off." : "You can only check off your own chores."
        case .choreReview: return "Only a parent can approve chores."
        case .choreSkip: return "Only a parent can skip a chore."
        case .chorePause: return "Only a parent can pause chores."
        case .choreReviewPolicy: return "Only a parent can say whose chores need checking."
        case .choreEdit: return "Only a parent can change or delete chores."
        case .choreProposeOwn: return "You can see chores, but only the family can suggest one."
        case .pointsSeeOwn: return "As a viewer you have no points to see."
        case .pointsSeeOthers: return "You can only see your own points."
        case .pointsAdjust: return "Only a parent can give or take away points."
        case .rewardManage: return "Only a parent can set up rewards."
        case .rewardRedeemOwn: return "As a viewer you have no points to spend."
        case .rewardRedeemForOthers: return viewer ? "As a viewer you have no points to spend." : "You can only spend your own points."
        case .rewardApprove: return "Only a parent can approve rewards."
        case .messageSend: return "You can read messages sent to you, but as a viewer you can't send them."
        case .messageRead: return "That message isn't yours to read."
        case .checkInAsk: return "You can see how everyone is, but as a viewer you can't ask for check-ins."
        case .checkInWatch: return "You can see how everyone is, but as a viewer you can't set up check-ins."
        case .statusSet: return "You can see how everyone is, but as a viewer you can't set a status."
        case .checkInAnswer: return "Only the person asked can answer that check-in."
        case .locationSeeShared, .locationSeeUnshared: return "That location isn't shared with you."
        case .locationSetOwnSharing: return "Only the person whose location it is can change who sees it."
        case .locationReportOwn: return "You can't report a location."
        case .locationReportOthers: return "Only that person's own phone or the family's owner can report where they are."
        case .timetableReadOwn, .timetableReadOthers: return "Only the student and the grown-ups can see a timetable."
        case .timetableEditOwn, .timetableEdit: return "\(actor.name) can't change that timetable."
        case .timetableSetWeek: return "\(actor.name) can view timetables but not change the week."
        case .schoolHolidayEdit: return "Only a parent can change the school holidays."
        case .parentUpdates: return "Only the parents are told of each other's changes."
        case .bookedReminders: return "Only parents book events for others, so only they choose to be reminded of them."
        case .memberAdd: return "Only a parent can add someone to the family."
        case .memberRemove: return "Only a parent can remove someone from the family."
        case .coParentAdd: return "Only the family's owner can add a co-parent."
        case .coParentRemove: return "Only the family's owner can remove a co-parent."
        case .invite: return "Only the family's owner can invite someone."
        case .placeManage: return "Only a parent can change the family's places."
        case .familyDelete: return "Only the family's owner can delete the family."
        case .activityRead: return "Only a parent can see what's changed in the family. You can ask what you changed."
        case .activityReadOwn: return "You can't see what you've changed."
        case .pinSetOthers: return "Only a parent can change someone else's PIN."
        case .pinRequire: return "Only a parent can change whether a PIN is required."
        case .export: return "Only a parent can export the family's data."
        case .memberEdit: return "Only a parent can change someone's details in the family."
        case .memberRoleChange: return "Only the family's owner can change someone's role."
        case .memberAccess: return "Only a parent can take away or give back someone's access."
        case .memberOwnWords: return "You can't change what you call people."
        case .householdDevice: return "Only the family's owner can change how a shared device signs in."
        case .outboxDeliver: return "Only a parent can hand out everyone's notifications."
        case .deviceManage: return "Only a parent can add or remove a device."
        case .feedManage: return "Only a parent can add or remove a calendar feed."
        case .backup: return "Only a parent can back up the family's data."
        case .pushManage: return "Only a parent can choose where notifications are pushed."
        case .caldavSync: return "Only a parent can sync the family calendar with a CalDAV server."
        case .shoppingRead: return "You can't see the shopping list."
        case .shoppingAdd, .shoppingRemoveOwn: return "You can see the shopping list, but as a viewer you can't change it."
        case .shoppingRemove: return viewer ? "You can see the shopping list, but as a viewer you can't change it."
            : "You can cross off what you added; ask a parent to take off the rest."
        case .shoppingClear: return viewer ? "You can see the shopping list, but as a viewer you can't change it."
            : "Only a parent can clear the shopping list."
        }
    }
}
