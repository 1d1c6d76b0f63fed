// A DNS server on loopback for the tests: answers TXT queries from a table the test fills; names
// under `slow.test` are never answered (the resolver's time limit).
import { createSocket, type RemoteInfo } from "node:dgram";
import dnsPacket from "dns-packet";

export interface TestDns {
  /** `127.0.0.1:<port>`, for SSO_DNS_SERVERS. */
  address: string;
  /** Sets the TXT strings of a name (replacing earlier ones). */
  setTxt(name: string, values: string[]): void;
  /** Names asked so far, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startDns(): Promise<TestDns> {
  const records = new Map<string, string[]>();
  const asked: string[] = [];
  const socket = createSocket("udp4");
  socket.on("message", (message: Buffer, peer: RemoteInfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    asked.push(name);
    if (name.endsWith(".slow.test")) return; // never answered
    const values = question.type === "TXT" ? records.get(name) : undefined;
    const reply = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (values ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers: (values ?? []).map((value) => ({ type: "TXT" as const, name: question.name, class: "IN" as const, ttl: 60, data: value })),
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => records.set(name.toLowerCase(), values),
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
