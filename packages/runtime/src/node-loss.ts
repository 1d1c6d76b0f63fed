// Checks every second, not every heartbeatTimeout, whether a peer's heartbeats stopped; and not at all for a
// moment after this process (or the whole machine) stood still, when the peers' heartbeats are late for that
// reason alone.
import type { Middleware, ServiceBroker } from "moleculer";

/** How often peers' last heartbeats are checked. */
const NODE_CHECK_MS = 1_000;
/** A check this much later than due means the process was not running meanwhile (a stall, not a lost peer). */
const STALL_MS = 1_500;

interface Discoverer {
  checkRemoteNodes?: () => void;
  opts?: { heartbeatInterval?: number };
}

/**
 * Moleculer checks its peers' heartbeats every heartbeatTimeout (4 s here) and drops a peer whose last one is
 * older than that, in whole seconds: a killed process was dropped 5 to 9 s after its last heartbeat, and a GET
 * pending on it could reach the 10 s request timeout before its retry on another node answered. Checking every
 * second drops it after 5 to 6 s. The check is Moleculer's own (the discoverer's `checkRemoteNodes`).
 *
 * A process that was not scheduled for longer than heartbeatTimeout (a loaded machine, a long pause) runs its
 * timers before it reads what arrived meanwhile, and when the whole machine stood still its peers have sent
 * nothing either: every peer looks lost, and each one is dropped at once (all its calls then fail with 503
 * until its next heartbeat). So after a check comes late by more than STALL_MS, the checks wait two heartbeat
 * intervals, in which every live peer is heard again; a peer that really stopped is dropped after them.
 */
export function nodeLossCheck(): Middleware {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: "NodeLossCheck",
    // Installed when the broker is made, not when it has started: Moleculer's own check runs from the moment the
    // transporter connects, and a process stands still most while its services start (loading code, opening its
    // store), with its peers already known. Guarded only from `started`, that first check dropped every peer.
    created(broker: ServiceBroker) {
      const discoverer = (broker.registry as unknown as { discoverer?: Discoverer }).discoverer;
      const check = discoverer?.checkRemoteNodes?.bind(discoverer);
      if (!broker.transit || !discoverer || !check) return;
      const graceMs = 2 * (discoverer.opts?.heartbeatInterval ?? 1) * 1_000;
      let lastCheck = Date.now();
      let graceUntil = 0;
      // Moleculer's own timer calls the same method: both go through the guard.
      discoverer.checkRemoteNodes = () => {
        const now = Date.now();
        if (now - lastCheck > NODE_CHECK_MS + STALL_MS) {
          graceUntil = now + graceMs;
          broker.getLogger("node-loss").warn(`this process stood still for ${now - lastCheck} ms; peers' heartbeats are checked again in ${graceMs} ms`);
        }
        lastCheck = now;
        if (now < graceUntil) return;
        check();
      };
      timer = setInterval(() => discoverer.checkRemoteNodes?.(), NODE_CHECK_MS);
      timer.unref();
    },
    async stopped() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  } as Middleware;
}
