// The account page's words.
// The server and the web app import them from here, so a page downloads only the words it uses.

/** `messages.account`: the account page. */
export const accountMessages = {
  title: 'Account',
  email: 'Email',
  memberSince: 'Member since',
  myModels: 'My AI Models',
  subscriptionStatus: 'Subscription Status',
  active: 'Active',
  inactive: 'Inactive',
  plan: 'Plan',
  noPlan: 'No active plan',
  credits: 'Credits',
  freeTrainingsLeft: 'Free trainings left this month',
  refresh: 'Refresh',
  refreshing: 'Refreshing...',
  refreshed: 'Subscription status updated',
  manageSubscription: 'Manage Subscription',
  choosePlan: 'Choose a plan to start creating',
  choosePlanDescription: 'Pick the plan that suits you. You can change or cancel it at any time.',
  backToDashboard: 'Back to Dashboard',
  logout: 'Logout',
  subtitle: 'Your sign-in details and account settings.',
  detailsTitle: 'Your details',
  deleteAccount: {
    sectionTitle: 'Delete account',
    sectionDescription:
      'Permanently delete your account, your AI models, your photos and your generated images.',
    button: 'Delete account',
    title: 'Delete your account?',
    description:
      'This permanently deletes your account, your AI models, your photos and every image you generated. An active subscription is cancelled and unused credits are lost. This cannot be undone.',
    confirmPrompt: 'Type DELETE to confirm',
    confirmWord: 'DELETE',
    confirm: 'Delete my account',
    deleting: 'Deleting...',
    deleted: 'Your account has been deleted.',
    failed: 'Failed to delete account. Please try again.',
  },
} as const;
