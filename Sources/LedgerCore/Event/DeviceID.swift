/// A replica's 64-bit identity, random at `init`. Printed as 16 lowercase hex digits.
package struct DeviceID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    package var rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package static func random() -> DeviceID {
        var generator = SystemRandomNumberGenerator()
        var value: UInt64 = 0
        while value == 0 { value = generator.next() }
        return DeviceID(rawValue: value)
    }

    /// Parses 16 hex digits (the printed form).
    package init?(hex: String) {
        guard hex.count == 16, let value = UInt64(hex, radix: 16), value != 0 else { return nil }
        rawValue = value
    }

    package var description: String {
        let digits = String(rawValue, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An event's identity: the device that wrote it and its per-device sequence number (1, 2, 3 …).
package struct EventID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var device: DeviceID
    package var seq: UInt64
    package init(device: DeviceID, seq: UInt64) {
        (self.device, self.seq) = (device, seq)
    }
    package static func < (lhs: Self, rhs: Self) -> Bool { (lhs.device, lhs.seq) < (rhs.device, rhs.seq) }
    package var description: String { "\(device)#\(seq)" }
}
