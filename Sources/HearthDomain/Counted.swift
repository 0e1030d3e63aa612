/// A count with its noun, singular for one: "1 point", "3 points", "1 person" / "2 people" (with
/// `plural`). Every reply with a count says it through this or its own `== 1` test
/// (`SingularCountSweepTests` finds those that do neither).
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
