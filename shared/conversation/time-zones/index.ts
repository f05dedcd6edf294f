export { offsetMinutesAt, readClock } from './clock-reading';
export { isDaylightSavingTime } from './daylight-saving';
export { shortZoneName } from './short-zone-name';
export {
  formatClockStamp,
  formatClockTime,
  formatIsoDateTime,
  formatUtcOffset,
} from './time-formats';
export { isValidTimeZone, type TimeZone, timeZoneOf } from './time-zone';
export { naiveMilliseconds, type WallClock } from './wall-clock';
export { englishWeekdayName, isoWeekday } from './weekday';
