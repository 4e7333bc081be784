/// One chapter of the tour: a seed's documented scenarios, run end to end.
struct TourSection: Sendable {
    /// What `--section` takes.
    let name: String
    /// One line for `--help`.
    let summary: String
    let run: @Sendable (TourLog) async -> Void
}
