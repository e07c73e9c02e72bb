/**
 * The statements a client sends to PostgreSQL, read off the wire (a tap on tcp-proxy.ts): each
 * simple Query and each Parse (pg and knex send one unnamed Parse per statement), the parameters
 * of its Bind as text, and the command tag PostgreSQL answered it with (`UPDATE 0`, `INSERT 0 1`,
 * or `ERROR`). Only the protocol's framing is read (PostgreSQL's frontend/backend protocol 3.0,
 * without TLS): message type, length, and the few fields named above.
 */
import type { ProxyTap } from './tcp-proxy.js';

export interface WireStatement {
  connection: number;
  sql: string;
  /** Bind's parameters, as text (null for NULL); none for a simple Query. */
  params: Array<string | null>;
  /** PostgreSQL's answer: its CommandComplete tag, `ERROR`, or undefined while unanswered. */
  tag?: string;
}

/** SSLRequest and GSSENCRequest: untyped like the startup message, answered by one byte. */
const ENCRYPTION_REQUESTS = new Set([80877103, 80877104]);

interface Connection {
  fromClient: Buffer;
  fromServer: Buffer;
  started: boolean;
  /** Single-byte answers owed to encryption requests. */
  rawBytes: number;
  pending: WireStatement[];
}

const cstring = (buffer: Buffer, offset: number): [string, number] => {
  const end = buffer.indexOf(0, offset);
  return [buffer.toString('utf8', offset, end), end + 1];
};

function bindParams(body: Buffer): Array<string | null> {
  let [, offset] = cstring(body, 0); // portal
  [, offset] = cstring(body, offset); // statement
  const formats = body.readInt16BE(offset);
  offset += 2 + formats * 2;
  const count = body.readInt16BE(offset);
  offset += 2;
  const params: Array<string | null> = [];
  for (let index = 0; index < count; index += 1) {
    const length = body.readInt32BE(offset);
    offset += 4;
    if (length < 0) params.push(null);
    else {
      params.push(body.toString('utf8', offset, offset + length));
      offset += length;
    }
  }
  return params;
}

export class PgWireRecorder {
  readonly statements: WireStatement[] = [];
  private readonly connections = new Map<number, Connection>();
  private recording = false;

  /** For startTcpProxy's third argument. */
  readonly tap: ProxyTap = (number, toServer, chunk) => {
    let connection = this.connections.get(number);
    if (!connection) {
      connection = { fromClient: Buffer.alloc(0), fromServer: Buffer.alloc(0), started: false, rawBytes: 0, pending: [] };
      this.connections.set(number, connection);
    }
    if (toServer) {
      connection.fromClient = Buffer.concat([connection.fromClient, chunk]);
      this.readClient(number, connection);
    } else {
      connection.fromServer = Buffer.concat([connection.fromServer, chunk]);
      this.readServer(connection);
    }
  };

  /** Keeps the statements sent from now on (and their answers). */
  start(): void {
    this.statements.length = 0;
    this.recording = true;
  }

  /** Stops keeping statements; answers to kept ones still arrive. Returns what was kept. */
  stop(): WireStatement[] {
    this.recording = false;
    return [...this.statements];
  }

  private readClient(number: number, connection: Connection): void {
    for (;;) {
      const buffer = connection.fromClient;
      if (!connection.started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        if (ENCRYPTION_REQUESTS.has(buffer.readInt32BE(4))) connection.rawBytes += 1;
        else connection.started = true;
        connection.fromClient = buffer.subarray(length);
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return;
      const type = String.fromCharCode(buffer[0]);
      const body = buffer.subarray(5, 1 + length);
      connection.fromClient = buffer.subarray(1 + length);
      if (type === 'Q' || type === 'P') {
        const sql = type === 'Q' ? cstring(body, 0)[0] : cstring(body, cstring(body, 0)[1])[0];
        const statement: WireStatement = { connection: number, sql, params: [] };
        connection.pending.push(statement);
        if (this.recording) this.statements.push(statement);
      } else if (type === 'B') {
        const last = connection.pending.at(-1);
        if (last) last.params = bindParams(body);
      }
    }
  }

  private readServer(connection: Connection): void {
    for (;;) {
      if (connection.rawBytes > 0) {
        if (connection.fromServer.length < 1) return;
        connection.rawBytes -= 1;
        connection.fromServer = connection.fromServer.subarray(1);
        continue;
      }
      const buffer = connection.fromServer;
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return;
      const type = String.fromCharCode(buffer[0]);
      const body = buffer.subarray(5, 1 + length);
      connection.fromServer = buffer.subarray(1 + length);
      // One CommandComplete, ErrorResponse or EmptyQueryResponse per statement (pg sends one per Query).
      if (type === 'C' || type === 'E' || type === 'I') {
        const statement = connection.pending.shift();
        if (statement) statement.tag = type === 'C' ? cstring(body, 0)[0] : type === 'E' ? 'ERROR' : 'EMPTY';
      }
    }
  }
}
