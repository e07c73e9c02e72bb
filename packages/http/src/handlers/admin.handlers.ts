import type { Request } from 'express';
import type { Container } from 'inversify';
import { AUDIT, FLOWS, IDENTITY, type AdminDashboardFlow, type AuditService, type IdentityService, type StaffUsersFlow } from '@subshare/core';
import { serializeAuditEntry, serializeDashboard, serializeStaffUser } from '../serializers/admin.serializer.js';

/** The admin area's lists and figures: users (spec section 7), the dashboard and the audit log (beyond the spec). */
export function adminHandlers(container: Container) {
  const users = container.get<StaffUsersFlow>(FLOWS.StaffUsers);
  const identity = container.get<IdentityService>(IDENTITY.Service);
  const dashboard = container.get<AdminDashboardFlow>(FLOWS.AdminDashboard);
  const audit = container.get<AuditService>(AUDIT.Service);

  return {
    /** GET /api/user/getusers?page&limit (staff) → users, newest first */
    getUsers: async (req: Request) => (await users.list(req.query)).items.map(serializeStaffUser),
    /** GET /api/user/getusersbyemail?email (staff) → users whose e-mail contains the text, at most 100 */
    getUsersByEmail: async (req: Request) => (await users.searchByEmail(req.query)).map(serializeStaffUser),
    /** GET /api/user/getuserspages?limit (staff) → { pages, count } */
    getUsersPages: (req: Request) => identity.countUsers(req.query),
    /** GET /api/admin/dashboard (staff) → { revenueEur, ordersByState, slotOccupancy, waitingPast24h } */
    dashboard: async () => serializeDashboard(await dashboard.dashboard()),
    /** GET /api/audit/log?page&limit (admin) → entries, newest first */
    auditLog: async (req: Request) => (await audit.list(req.query)).items.map(serializeAuditEntry),
    /** GET /api/audit/logpages?limit (admin) → { pages, count } */
    auditLogPages: (req: Request) => audit.countPages(req.query),
  };
}
