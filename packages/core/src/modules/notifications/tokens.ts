export const NOTIFICATIONS = {
  Service: Symbol.for('subshare.notifications.NotificationsService'),
} as const;
