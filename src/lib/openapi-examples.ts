// Values shared by the OpenAPI examples of every module (`*.examples.ts`): one buyer, one developer
// app, one project and its tasks, so the examples of different operations tell one consistent story.
import { encodeCursor } from './pagination.ts';

export const EXAMPLE = {
  buyerId: 'cm3q7v8k20000lk08h2j4n6p8',
  buyerEmail: 'ml-ops@acme-robotics.com',
  companyName: 'Acme Robotics',
  adminId: 'cm3q6y0b20000lk08r1s2t3u4',
  adminEmail: 'admin@concord.example',
  developerId: 'cm3q6z1c40001lk08w9x7v5t3',
  developerEmail: 'team@swiftlabel.app',
  appName: 'SwiftLabel',
  appUrl: 'https://swiftlabel.app',
  developerApiKey: 'cw8k2m4p6r8t0v2x4z6b8d0f2',
  annotatorId: 'annotator-4821',
  projectId: 'cm3q7w0m10002lk08c5d6e7f8',
  taskId: 'cm3q7w1x90004lk08a1b2c3d4',
  failedTaskId: 'cm3q7w1x90005lk08e5f6g7h8',
  pendingTaskId: 'cm3q7w1x90006lk08t2u3v4w5',
  ratingTaskId: 'cm3q7w1x90009lk08r4t5n6g7',
  multiTaskId: 'cm3q7w1x9000alk08m7u8l9t0',
  pairTaskId: 'cm3q7w1x9000blk08p1a2i3r4',
  goldenTaskId: 'cm3q7w2a30006lk08i9j0k1l2',
  webhookId: 'cm3q7w3b40007lk08m3n4o5p6',
  deliveryId: 'cm3q7w1xb0009lk08q4r5s6t7',
  eventId: 'evt_cm3q7w4c50008lk08u7v8w9x0',
  ledgerEntryId: 'cm3q7w5d6000alk08y1z2a3b4',
  depositId: 'cm3q7w6e7000blk08c5d6e7f8',
  payoutId: 'cm3q7w7f8000clk08g9h0i1j2',
  assignmentId: 'cm3q7w8g9000dlk08k3l4m5n6',
  mailId: 'cm3q7w9h0000elk08o7p8q9r0',
  apiKeyId: 'key_cm3q7wai1000flk08s1t2u3v4',
  /** A 30-day HS256 JWT as the log-in routes issue it (signature shortened to nothing secret). */
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjbTNxN3Y4azIwMDAwbGswOGgyajRuNnA4Iiwicm9sZSI6ImJ1eWVyIiwidHYiOjAsImlhdCI6MTc3MzQ3ODgwMCwiZXhwIjoxNzc2MDcwODAwfQ.Q2zq8bH1m2XyQp4nW7vR3kT9sLd6fJa5gE1uYiOoPcA',
  createdAt: '2026-03-14T09:26:53.589Z',
  later: '2026-03-14T09:31:27.215Z',
  updatedAt: '2026-03-15T16:02:11.047Z',
} as const;

/** A real cursor, as the lists return it, pointing after the task example. */
export const EXAMPLE_CURSOR = encodeCursor({ createdAt: new Date(EXAMPLE.createdAt), id: EXAMPLE.taskId });
