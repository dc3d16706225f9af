import { z } from 'zod';

/** One signed-in console session of the current user, as GET /api/user/sessions answers it. */
export const userSessionSchema = z.object({
  /** opaque; DELETE /api/user/sessions/{id} ends it */
  id: z.string(),
  created_at: z.number(),
  last_seen_at: z.number(),
  expires_at: z.number(),
  ip: z.string(),
  user_agent: z.string(),
  /** the session this request was made with */
  is_current: z.boolean(),
});
export type UserSession = z.infer<typeof userSessionSchema>;
