import Codecs
import Contracts
import EventLog
import Foundation
import ServiceKit

/// The JSON columns of a listing's row (`image_ids`, `pickup_times`), read for every row of
/// every feed page. The projection writes them with `JSONEncoder` (ids) and
/// `EventJSON.encoder()` (pickup times: sorted keys, whole-second ISO 8601 dates); those
/// shapes are read in one pass over the bytes, and anything else (an escape in a note,
/// fractional seconds, a key this does not know) by the same decoders the projection's
/// output came from, so the result is always theirs (issue 17: `JSONDecoder` was a tenth of
/// serving a feed page).
enum StoredListingJSON {
    /// The photo ids in an `image_ids` column; empty when the column cannot be read.
    static func imageIds(_ text: String) -> [UUID] {
        var text = text
        return text.withUTF8 { utf8 in
            plainImageIds(UnsafeRawBufferPointer(utf8)) ?? (try? JSONDecoder().decode([UUID].self, from: Data(utf8))) ?? []
        }
    }

    /// The pickup times in a `pickup_times` column; none when the column cannot be read.
    static func pickupTimes(_ text: String) -> PickupTimes {
        var text = text
        return text.withUTF8 { utf8 in
            plainPickupTimes(UnsafeRawBufferPointer(utf8))
                ?? (try? EventJSON.decoder().decode(PickupTimes.self, from: Data(utf8))) ?? PickupTimes()
        }
    }

    private static func plainImageIds(_ bytes: UnsafeRawBufferPointer) -> [UUID]? {
        var reader = PlainJSONReader(bytes: bytes)
        guard reader.consume(UInt8(ascii: "[")) else { return nil }
        var ids: [UUID] = []
        if !reader.consume(UInt8(ascii: "]")) {
            repeat {
                guard let id = reader.uuid() else { return nil }
                ids.append(id)
            } while reader.consume(UInt8(ascii: ","))
            guard reader.consume(UInt8(ascii: "]")) else { return nil }
        }
        return reader.atEnd ? ids : nil
    }

    private static func plainPickupTimes(_ bytes: UnsafeRawBufferPointer) -> PickupTimes? {
        var reader = PlainJSONReader(bytes: bytes)
        var note: String??, windows: [PickupWindow]?
        let read = reader.object { key, reader in
            if key.holds("note") { return reader.fill(&note) { $0.optional { $0.string() } } }
            if key.holds("windows") { return reader.fill(&windows, plainWindows) }
            return false
        }
        guard read, reader.atEnd, let windows else { return nil }
        var times = PickupTimes()
        times.note = note ?? nil
        times.windows = windows
        return times
    }

    private static func plainWindows(_ reader: inout PlainJSONReader) -> [PickupWindow]? {
        guard reader.consume(UInt8(ascii: "[")) else { return nil }
        var windows: [PickupWindow] = []
        if reader.consume(UInt8(ascii: "]")) { return windows }
        repeat {
            guard let (startsAt, endsAt) = reader.pair("startsAt", { $0.wholeSecondDate() }, "endsAt", { $0.wholeSecondDate() })
            else { return nil }
            windows.append(PickupWindow(startsAt: startsAt, endsAt: endsAt))
        } while reader.consume(UInt8(ascii: ","))
        return reader.consume(UInt8(ascii: "]")) ? windows : nil
    }
}
