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
            // The stretch being read, kept apart: a device is hashed once a stretch, not a record.
            var current: (device: DeviceID, stretch: Stretch)?
            var (offset, interleaved) = (0, false)
            func close() {
                guard let current else { return }
                if stretches[current.device] == nil { devices.append(current.device) } else { interleaved = true }
                stretches[current.device, default: []].append(current.stretch)
            }
            RecordStream.forEachValidated(in: buffer) { view in
                if current?.device == view.device {
                    current!.stretch.bytes = current!.stretch.bytes.lowerBound..<(offset + view.length)
                    current!.stretch.count += 1
                } else {
                    close()
                    current = (view.device, Stretch(bytes: offset..<(offset + view.length), count: 1))
                }
                offset += view.length
            }
            close()
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
