extension Duration {
    /// The duration in seconds, as a figure for a report.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
