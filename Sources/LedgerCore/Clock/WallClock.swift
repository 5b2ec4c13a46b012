#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The source of "now" for new events and for "today".
package protocol WallClock: Sendable {
    /// Unix time in milliseconds.
    func nowMilliseconds() -> Int64
}

extension WallClock {
    package var today: CalendarDay { CalendarDay(tokyoDateOfUnixMilliseconds: nowMilliseconds()) }
}

/// The machine's real-time clock.
package struct SystemClock: WallClock {
    package init() {}
    package func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// A clock pinned to one instant (tests, reproducible demos).
package struct FixedClock: WallClock {
    package var milliseconds: Int64
    package init(milliseconds: Int64) { self.milliseconds = milliseconds }
    package func nowMilliseconds() -> Int64 { milliseconds }
}

/// A clock offset from the system clock by a fixed amount (simulated clock skew).
package struct SkewedClock: WallClock {
    package var offsetMilliseconds: Int64
    package init(offsetMilliseconds: Int64) { self.offsetMilliseconds = offsetMilliseconds }
    package func nowMilliseconds() -> Int64 { SystemClock().nowMilliseconds() + offsetMilliseconds }
}
