import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What limits a figure, read from /proc without perf: a process's CPU time and memory, and
/// the whole machine's busy share (the server, the clients and PostgreSQL share the cores).
enum ProcessSample {
    /// User + system CPU seconds of `pid` so far (/proc/PID/stat fields 14 and 15); nil once it is gone.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// A line of /proc/PID/status in MiB ("VmRSS", "VmHWM"); nil once the process is gone.
    static func memoryMiB(pid: Int32, _ field: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kib = line.split(separator: " ").compactMap { Double($0) }.first
            return kib.map { $0 / 1_024 }
        }
        return nil
    }

    /// This process's user + system CPU seconds (the load generator: clients and probes).
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The machine's CPU ticks (busy, total) from the first line of /proc/stat.
    struct MachineTicks {
        var busy: Double = 0, total: Double = 0

        static func now() -> MachineTicks {
            guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                  let line = text.split(separator: "\n").first else { return MachineTicks() }
            let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            guard values.count >= 5 else { return MachineTicks() }
            let total = values.prefix(8).reduce(0, +)
            return MachineTicks(busy: total - values[3] - values[4], total: total)  // minus idle and iowait
        }

        /// The busy share of every core between `earlier` and `self`, in percent.
        func busyPercent(since earlier: MachineTicks) -> Double {
            let total = self.total - earlier.total
            return total > 0 ? (busy - earlier.busy) * 100 / total : 0
        }
    }
}
