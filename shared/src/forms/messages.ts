/**
 * The forms' validation messages in the reader's language (issue 33). The
 * schemas in office.ts keep their English texts (tests and the server's
 * answers compare them); a screen passes each text through `formMessage`,
 * which finds its catalogue id (with the numbers it carries) and translates.
 */
import type { MessageId, Translate } from '../i18n/index.ts';

const EXACT: Record<string, MessageId> = {
  'At least 1 day': 'forms.atLeastOneDay',
  'Name is required': 'forms.nameRequired',
  'Surname is required': 'forms.surnameRequired',
  'Password is required': 'forms.passwordRequired',
  'Current password is required': 'forms.currentPasswordRequired',
  'Title is required': 'forms.titleRequired',
  'Start is required': 'forms.startRequired',
  'End is required': 'forms.endRequired',
  'Unknown role': 'forms.unknownRole',
  'Expected a date YYYY-MM-DD': 'forms.expectedDate',
  'Write the article': 'forms.writeArticle',
  'Whole days': 'forms.wholeDays',
  'Unknown time zone; use an IANA name such as Europe/Madrid': 'forms.unknownZone',
  'Too long': 'forms.tooLong',
  // The server's own field texts (server/src/http/zod.ts and the area schemas), translated in a 400's `errors`.
  Required: 'forms.required',
  'Required: a date YYYY-MM-DD': 'forms.requiredDate',
  'Expected an integer': 'forms.expectedInteger',
  'Expected a positive integer': 'forms.expectedPositive',
  'Expected a boolean': 'forms.expectedBoolean',
  'Expected unix seconds': 'forms.expectedUnix',
  'Expected a page number': 'forms.expectedPage',
  'Expected a year': 'forms.expectedYear',
  'Expected a role number': 'forms.expectedRole',
  'Expected hours as a number': 'forms.expectedHours',
  'Invalid email address': 'forms.invalidEmail',
  'Text may not contain NUL characters': 'forms.noNul',
  'Expected an object of fields, not an array': 'forms.fieldsNotArray',
  'This is already your address': 'forms.alreadyYourAddress',
  'The new passwords do not match': 'forms.passwordsDiffer',
  'The expiry must be after today': 'forms.expiryAfterToday',
  'The expiration date must be in the future': 'forms.expirationFuture',
  'The addresses do not match': 'forms.addressesDiffer',
  'Repeat the new password': 'forms.repeatNewPassword',
  'Pick the user the key acts as': 'forms.pickKeyUser',
  'Pick at least one role': 'forms.pickRole',
  'Pick a pilot': 'forms.pickPilot',
  'Expected the 6-digit code from the app': 'forms.totpCode',
  'Expected an http(s) URL or a path': 'forms.urlOrPath',
  'Expected an email address such as name@example.com': 'forms.email',
  'Expected an ISO 4217 currency code such as EUR': 'forms.currency',
  'Expected an ISO 3166 country code such as ES': 'forms.country',
  'Expected an ICAO code such as LECU': 'forms.icao',
  'Expected a 4-letter ICAO code': 'forms.icao4',
  'Expected a phone number': 'forms.phone',
  'Expected a number': 'forms.number',
  'Expected a hex colour such as #1f6feb': 'forms.hexColour',
  'Expected a dialling code such as +34': 'forms.diallingCode',
  'End must be after start': 'forms.endAfterStart',
  'An external auditor needs an expiration date': 'forms.auditorExpiration',
  'An entry wholly in the past cannot be added': 'forms.entryInPast',
  // Rarer texts of the server's schemas and services (issue 33).
  'At least one student': 'forms.atLeastOneStudent',
  'Already in use': 'forms.alreadyInUse',
  'Invalid registration': 'forms.invalidRegistration',
  'Registration must be 2 to 10 letters, digits or dashes': 'forms.registrationFormat',
  'Expected an ISO 8601 date and time': 'forms.isoDateTime',
  'Expected an amount with at most two decimals': 'forms.amountTwoDecimals',
  'Expected hours with at most two decimals': 'forms.hoursTwoDecimals',
  'The expiration cannot be before the issue date': 'forms.expirationAfterIssue',
  'Unknown airport; expected an ICAO code such as LECU': 'forms.unknownAirport',
  'Unknown time zone; expected an IANA name such as Europe/Madrid': 'forms.unknownZoneIana',
  'An always-available entry has no start or end': 'forms.alwaysNoTimes',
  'Expected a month YYYY-MM': 'forms.expectedMonth',
  'Expected a date on or after from': 'forms.dateOnOrAfterFrom',
  'A rate cannot be negative': 'forms.rateNotNegative',
  'Must not be negative': 'forms.notNegative',
  'Email is required': 'forms.emailRequired',
  'Country is required': 'forms.countryRequired',
  'Time zone is required': 'forms.timeZoneRequired',
  'Text is required': 'forms.textRequired',
  'Type is required': 'forms.typeRequired',
  'User is required': 'forms.userRequired',
  'Your password is required': 'forms.yourPasswordRequired',
  'New email is required': 'forms.newEmailRequired',
  'Repeat the new email': 'forms.repeatNewEmail',
  'Say what was done': 'forms.sayWhatWasDone',
  'Unknown country; expected an ISO 3166 code such as ES': 'forms.unknownCountry',
  'Too short': 'forms.tooShort',
  'Too large': 'forms.tooLarge',
  'Pages start at 1': 'forms.pagesStartAt1',
  'At most a day': 'forms.atMostADay',
  'At most one decimal': 'forms.atMostOneDecimal',
  'Between 0 and 100': 'forms.between0and100',
};

/** The flights' long-text messages by their first words (the same ids the flight form's own check says). */
const LONG_TEXT: Record<string, MessageId> = {
  'A callsign has': 'flights.vCallsignLong',
  'A route has': 'flights.vRouteLong',
  'Remarks have': 'flights.vRemarksLong',
  'This field has': 'flights.vTextLong',
};

// Messages with a number in them: the number is kept as written (a string, so English is unchanged).
const PATTERNS: [RegExp, MessageId, string][] = [
  [/^At most (\d+) characters$/, 'forms.atMostChars', 'count'],
  [/^At least (\d+) characters$/, 'forms.atLeastChars', 'count'],
  [/^At most (\d+) days \(ten years\)$/, 'forms.atMostDaysTenYears', 'count'],
  [/^An external auditor account lasts at most (\d+) days$/, 'forms.auditorMaxDays', 'count'],
  [/^At most (\d+) hours \(a leap year\)$/, 'forms.atMostHoursLeap', 'max'],
  [/^At most (\d+) hours$/, 'forms.atMostHours', 'max'],
  [/^At most (\d+) students$/, 'forms.atMostStudents', 'max'],
  [/^At most (\d+) \(percent\)$/, 'forms.atMostPercent', 'max'],
  [/^At most (\d+)$/, 'forms.atMost', 'max'],
  [/^At least (\d+)$/, 'forms.atLeast', 'min'],
];

const LONG_TEXT_RE =
  /^(A callsign has|A route has|Remarks have|This field has) at most (\d+) characters; this text has (\d+)\.$/;

/** A form message in the reader's language; a text this list does not know stays as it is. */
export function formMessage(text: string, t: Translate): string {
  const id = EXACT[text];
  if (id) return t(id);
  for (const [re, pid, name] of PATTERNS) {
    const m = re.exec(text);
    if (m) return t(pid, { [name]: m[1] });
  }
  // The flights' long-text field (flights.schema.ts on the server, validation.ts on a device).
  const long = LONG_TEXT_RE.exec(text);
  if (long) return t(LONG_TEXT[long[1]], { max: long[2], length: long[3] });
  return text;
}
