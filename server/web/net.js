// The WebSocket to the server's door: one JSON text frame per message, externally tagged
// ({"Move":{"game":3,"text":"11-15"}}). Says hello (a guest, or a person proving its key),
// answers the server's pings, and reconnects with growing pauses, resuming a guest's seats with
// its token; a person's seats come back by signing in again.

import { keyFor, prove } from "./identity.js";

const PROTOCOL_VERSION = 4;

export class Connection {
  /** `onMessage(kind, body)` gets every server message but pings; `onLink(text)` the link's state. */
  constructor({ name, guest, onMessage, onLink }) {
    this.name = name;
    this.guest = guest;
    this.onMessage = onMessage;
    this.onLink = onLink;
    this.resume = sessionStorage.getItem(`kingme-resume:${name}`);
    this.pause = 500;
    this.closedForGood = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.onLink("connecting…");
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
        this.onLink("connected");
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
      this.onLink("disconnected");
      return;
    }
    this.onLink(`connection lost; trying again in ${Math.round(this.pause / 1000)} s`);
    setTimeout(() => this.open(), this.pause);
    this.pause = Math.min(this.pause * 2, 15000);
  }

  /** Sends a message if the connection is open; says whether it was sent. */
  send(message) {
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
