export { offsetMinutesAt, readClock } from './clock-reading';
export { formatClockStamp } from './clock-stamp';
export { isDaylightSavingTime } from './daylight-saving';
export { formatClockTime, formatIsoDateTime } from './iso-date-time';
export { shortZoneName } from './short-zone-name';
export { isValidTimeZone, type TimeZone, timeZoneOf } from './time-zone';
export { formatUtcOffset } from './utc-offset';
export { naiveMilliseconds, type WallClock } from './wall-clock';
export { englishWeekdayName, isoWeekday } from './weekday';
