// The console's time-zone picker, one for every form that asks for a zone (the campaign wizard's schedule step, the
// member editor, the account's local time): every IANA zone the runtime knows, as templates/console/time-zone-field.hbs
// shows them.

// Names Node's ICU still spells the old way (Intl.supportedValuesOf lists the links): the IANA names people know.
const CURRENT_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/** Every IANA zone the runtime knows (current spellings) and UTC, sorted: the picker's options. */
export const TIME_ZONES: readonly string[] = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone').map((z) => CURRENT_NAMES[z] ?? z)])].sort();

/**
 * The picker's options with `selected` marked. A saved zone the list lacks (an older spelling Intl resolved to, e.g.
 * Asia/Calcutta) comes first, so showing a form never loses it.
 */
export function zoneOptions(selected: string | null | undefined): Array<{ value: string; selected: boolean }> {
  const zones = selected && !TIME_ZONES.includes(selected) ? [selected, ...TIME_ZONES] : TIME_ZONES;
  return zones.map((value) => ({ value, selected: value === selected }));
}
