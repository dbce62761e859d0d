// A person's identity in the browser: an Ed25519 key pair made with WebCrypto the first time a
// name is used, kept in IndexedDB (the private key is not extractable: the page can sign with it
// but nobody can read it out), and the proof message the server's challenge asks to sign
// (PROTOCOL.md, "Identities": the same bytes as kingme_shared::identity::proof_message).
//
// The proof names the connection's channel binding: the SHA-256 of the certificate the server
// presented (RFC 5929 tls-server-end-point). A page cannot see its connection's certificate, so
// it asks the server that served it (`GET /binding`). That is safe here and only here: the key
// lives in this origin's storage, and only pages of this origin (served by this server over TLS
// with this certificate) can use it; a page served by any other server is another origin, which
// holds other keys. Every other client MUST compute the binding from the certificate it saw
// itself and never take it from the server: a relay would tell it the binding of the server it
// passes the proof on to.

const DB = "kingme";
const STORE = "keys";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function run(db, mode, action) {
  return new Promise((resolve, reject) => {
    const request = action(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Whether this browser can sign with Ed25519. */
export async function canSign() {
  try {
    await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    return true;
  } catch {
    return false;
  }
}

/** The key pair of `name`, made and kept on first use; and its public key's 32 bytes. */
export async function keyFor(name) {
  const db = await open();
  let pair = await run(db, "readonly", (store) => store.get(name));
  if (!pair) {
    pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    await run(db, "readwrite", (store) => store.put(pair, name));
  }
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  return { privateKey: pair.privateKey, publicKey: Array.from(raw) };
}

function bytes(values) {
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, values.length, false);
  return [...length, ...values];
}

function text(value) {
  return bytes(new TextEncoder().encode(value));
}

/**
 * The channel binding of this page's connections, as the server that served the page tells it:
 * `{ label, bytes }`, the label "tls-server-end-point" and the certificate's 32-byte SHA-256, or
 * "unencrypted" and no bytes. Asked for at every challenge: a renewed certificate changes it.
 */
export async function binding() {
  const response = await fetch("/binding", { cache: "no-store" });
  if (!response.ok) throw new Error(`the server did not say its binding (${response.status})`);
  const { label, hex } = await response.json();
  return { label, bytes: (hex.match(/../g) || []).map((pair) => parseInt(pair, 16)) };
}

/** The exact bytes a person signs to answer a challenge on a connection with `channel`. */
export function proofMessage(serverId, nonce, channel, name) {
  const domain = [...new TextEncoder().encode("kingme identity proof v4"), 0];
  return new Uint8Array([
    ...domain, ...text(serverId), ...nonce, ...text(channel.label), ...bytes(channel.bytes),
    ...text(name),
  ]);
}

/** The 64-byte signature of the proof, as the array of numbers `Prove` carries. */
export async function prove(privateKey, serverId, nonce, name) {
  const message = proofMessage(serverId, nonce, await binding(), name);
  const signature = await crypto.subtle.sign({ name: "Ed25519" }, privateKey, message);
  return Array.from(new Uint8Array(signature));
}
