// A sample ecard_shared body (an array with one recipient's element), made of invented data, for test sends.
export function sampleEcardShared(now: Date): Array<Record<string, unknown>> {
  return [
    {
      event_type: 'ecard_shared',
      type: 'email',
      sender_request_id: 'test-send.1',
      ecardid: 1001,
      widgetid: 2001,
      vanity_id: 'SampleVanity1',
      sender_name: 'Jane Doe',
      sender_email: 'jane.doe@example.com',
      recipient_name: 'John Roe',
      recipient_email: 'john.roe@example.com',
      personal_message: '<p>Happy birthday!</p>',
      locale: 'en',
      scheduled_to_be_sent_at: now.toISOString(),
      sent: false,
      opened: false,
      merge_tags: '',
      override_props: '',
      do_notify_on_open: false,
    },
  ];
}
