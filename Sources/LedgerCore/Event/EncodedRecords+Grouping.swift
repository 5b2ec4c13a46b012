extension EncodedRecords {
    /// These records with each device's records together: the devices in the order they first
    /// appear, each device's records in their order. A receiver takes records of several
    /// devices in any order of devices, as long as each device's seqs rise (Schemas/merge.md
    /// §2.1), so this order is as good as the log's; an encrypted push seals each device's
    /// events in it as the longest runs it can (Schemas/encryption.md §3.5). The records
    /// themselves, without a copy, when no device's records are split.
    package func groupedByDevice() -> EncodedRecords {
        bytes.withUnsafeBytes { buffer in
            var devices: [DeviceID] = []
            var stretches: [DeviceID: [Stretch]] = [:]
            var (offset, previous, interleaved) = (0, DeviceID?.none, false)
            RecordStream.forEachValidated(in: buffer) { view in
                let device = view.device
                if device == previous {
                    stretches[device]!.extendLast(through: offset + view.length)
                } else {
                    if stretches[device] == nil { devices.append(device) } else { interleaved = true }
                    stretches[device, default: []].append(Stretch(bytes: offset..<(offset + view.length), count: 1))
                    previous = device
                }
                offset += view.length
            }
            guard interleaved else { return self }
            var grouped = EncodedRecords()
            grouped.reserve(bytes: buffer.count)
            for device in devices {
                for stretch in stretches[device]! {
                    grouped.append(validated: UnsafeRawBufferPointer(rebasing: buffer[stretch.bytes]), count: stretch.count)
                }
            }
            return grouped
        }
    }
}

/// Consecutive records of one device in a batch's bytes.
private struct Stretch {
    var bytes: Range<Int>
    var count: Int
}

extension [Stretch] {
    /// The last stretch taking one more record, which ends at `end`.
    fileprivate mutating func extendLast(through end: Int) {
        self[count - 1].bytes = self[count - 1].bytes.lowerBound..<end
        self[count - 1].count += 1
    }
}
