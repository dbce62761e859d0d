// The WebSocket to the server's door: one JSON text frame per message, externally tagged
// ({"Move":{"game":3,"text":"11-15"}}). Says hello (a guest, or a person proving its key),
// answers the server's pings, and after a lost connection reconnects with growing pauses (half
// a second, doubling up to 15 s): a person signs in again with the key this browser keeps, a
// guest with its resume token, and the server gives the seats back either way.

import { keyFor, prove } from "./identity.js";

const PROTOCOL_VERSION = 9;

export class Connection {
  /**
   * `onMessage(kind, body)` gets every server message but pings; `onLink(state, text)` the
   * link's state ("connecting", "connected", "lost" or "refused") and words for the person.
   */
  constructor({ name, guest, onMessage, onLink }) {
    this.name = name;
    this.guest = guest;
    this.onMessage = onMessage;
    this.onLink = onLink;
    this.resume = sessionStorage.getItem(`kingme-resume:${name}`);
    this.pause = 500;
    this.closedForGood = false;
    this.welcomed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.onLink("connecting", "connecting…");
    this.socket.onopen = () => this.hello();
    this.socket.onmessage = (event) => this.receive(event.data);
    this.socket.onclose = () => this.closed();
  }

  async hello() {
    let publicKey = null;
    if (!this.guest) {
      this.key = await keyFor(this.name);
      publicKey = this.key.publicKey;
    }
    this.send({ Hello: {
      protocol_version: PROTOCOL_VERSION, name: this.name, public_key: publicKey,
      legacy_secret: null, resume: this.guest ? this.resume : null, guest: this.guest,
    } });
  }

  async receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      this.onMessage("Error", { kind: "Malformed", message: "the server sent text that is not JSON", fatal: false });
      return;
    }
    const [kind, body] = Object.entries(message)[0];
    switch (kind) {
      case "Ping":
        this.send({ Pong: body });
        return;
      case "Challenge": {
        const signature = await prove(this.key.privateKey, body.server_id, body.nonce, this.name);
        this.send({ Prove: { signature } });
        return;
      }
      case "Welcome":
        this.pause = 500;
        if (this.guest && body.resume_token) {
          this.resume = body.resume_token;
          sessionStorage.setItem(`kingme-resume:${this.name}`, this.resume);
        }
        this.welcomed = true;
        this.onLink("connected", "connected");
        break;
      case "Error":
        if (body.fatal && (body.kind === "Unauthorized" || body.kind === "VersionMismatch")) {
          // Trying again would be refused the same way.
          this.closedForGood = true;
          if (body.kind === "Unauthorized" && this.guest) {
            sessionStorage.removeItem(`kingme-resume:${this.name}`);
          }
        }
        break;
      default:
    }
    this.onMessage(kind, body);
  }

  closed() {
    if (this.closedForGood) {
      this.onLink("refused", "not signed in");
      return;
    }
    const seconds = Math.max(1, Math.round(this.pause / 1000));
    this.onLink("lost", `connection lost; trying again in ${seconds} s`);
    setTimeout(() => this.open(), this.pause);
    this.pause = Math.min(this.pause * 2, 15000);
  }

  /** Closes the connection for good (the person signs in under another name). */
  close() {
    this.closedForGood = true;
    this.socket.close();
  }

  /** Sends a message if the connection is open; says whether it was sent. */
  send(message) {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
