import Codecs
import Contracts
import EventLog
import Foundation

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
                guard let text = reader.plainString(), let id = UUID(utf8: UnsafeRawBufferPointer(rebasing: text)) else { return nil }
                ids.append(id)
            } while reader.consume(UInt8(ascii: ","))
            guard reader.consume(UInt8(ascii: "]")) else { return nil }
        }
        return reader.atEnd ? ids : nil
    }

    private static func plainPickupTimes(_ bytes: UnsafeRawBufferPointer) -> PickupTimes? {
        var reader = PlainJSONReader(bytes: bytes)
        var times = PickupTimes()
        var sawWindows = false
        guard reader.consume(UInt8(ascii: "{")) else { return nil }
        if !reader.consume(UInt8(ascii: "}")) {
            repeat {
                guard let key = reader.plainString(), reader.consume(UInt8(ascii: ":")) else { return nil }
                if key.holds("note") {
                    if !reader.consumeNull() {
                        guard let note = reader.plainString() else { return nil }
                        times.note = String(decoding: note, as: UTF8.self)
                    }
                } else if key.holds("windows") {
                    guard let windows = plainWindows(&reader) else { return nil }
                    times.windows = windows
                    sawWindows = true
                } else {
                    return nil
                }
            } while reader.consume(UInt8(ascii: ","))
            guard reader.consume(UInt8(ascii: "}")) else { return nil }
        }
        return sawWindows && reader.atEnd ? times : nil
    }

    private static func plainWindows(_ reader: inout PlainJSONReader) -> [PickupWindow]? {
        guard reader.consume(UInt8(ascii: "[")) else { return nil }
        var windows: [PickupWindow] = []
        if reader.consume(UInt8(ascii: "]")) { return windows }
        repeat {
            guard reader.consume(UInt8(ascii: "{")) else { return nil }
            var startsAt: Date?
            var endsAt: Date?
            repeat {
                guard let key = reader.plainString(), reader.consume(UInt8(ascii: ":")),
                      let text = reader.plainString(), let date = WholeSecondISO8601.date(UnsafeRawBufferPointer(rebasing: text))
                else { return nil }
                if key.holds("startsAt") { startsAt = date } else if key.holds("endsAt") { endsAt = date } else { return nil }
            } while reader.consume(UInt8(ascii: ","))
            guard reader.consume(UInt8(ascii: "}")), let startsAt, let endsAt else { return nil }
            windows.append(PickupWindow(startsAt: startsAt, endsAt: endsAt))
        } while reader.consume(UInt8(ascii: ","))
        return reader.consume(UInt8(ascii: "]")) ? windows : nil
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ`, as `JSONEncoder`'s `.iso8601` strategy writes a date.
enum WholeSecondISO8601 {
    /// The date the text names; nil for any other form or a field out of range.
    static func date(_ text: UnsafeRawBufferPointer) -> Date? {
        guard text.count == 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
              text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z"),
              let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
              let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func digits(_ text: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in text[start..<(start + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (the civil-days
    /// count of eras of 400 years, as in Howard Hinnant's date algorithms).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
