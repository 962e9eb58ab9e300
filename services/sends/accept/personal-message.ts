// The personal message's one limit, shared by every way in: the key API's send-ecard, the console's Send page (its
// form's maxlength and its check), the widget (its form's maxlength, counter and both send paths), campaigns and
// automations. Counted in characters of what is sent: the HTML for the API, the typed text for the forms.
export const PERSONAL_MESSAGE_MAX = 20_000;

/** The refusal's words (the API prefixes the field's name; the console's field error capitalizes them). */
export const PERSONAL_MESSAGE_TOO_LONG = `at most ${PERSONAL_MESSAGE_MAX.toLocaleString('en')} characters`;
