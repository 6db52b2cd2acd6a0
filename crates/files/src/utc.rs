//! UTC calendar times without a time-zone library: RFC 3339 for records,
//! and the compact stamp of default output directories.

/// `time` as RFC 3339 UTC to the second, `1970-01-01T00:00:00Z` for the
/// epoch (and for times before it, which a clock set that wrong gives).
pub fn utc_rfc3339(time: std::time::SystemTime) -> String {
    let [year, month, day, hour, minute, second] = utc_fields(time);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
}

/// `[year, month, day, hour, minute, second]` of `time` in UTC (the epoch for
/// times before it): the one calendar computation of arena.
pub fn utc_fields(time: std::time::SystemTime) -> [u64; 6] {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, of_day) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days, on days since 1970-01-01.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    [
        year,
        month,
        day,
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
    ]
}

/// `time` as `YYYYMMDD-HHMMSS` in UTC: the name of a default output directory.
pub fn utc_timestamp(time: std::time::SystemTime) -> String {
    let [year, month, day, hour, minute, second] = utc_fields(time);
    format!("{year:04}{month:02}{day:02}-{hour:02}{minute:02}{second:02}")
}

#[cfg(test)]
mod tests {
    use super::utc_rfc3339;
    use std::time::{Duration, UNIX_EPOCH};

    /// Expected strings from Python's `datetime.fromtimestamp(t, timezone.utc)`.
    #[test]
    fn utc_times_are_rfc3339() {
        let at = |secs| utc_rfc3339(UNIX_EPOCH + Duration::from_secs(secs));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_764_547_408), "2025-12-01T00:03:28Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
    }
}
