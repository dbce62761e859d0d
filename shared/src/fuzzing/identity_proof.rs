//! The identity proof target: a public key, a nonce, a server id, a name and a signature, all
//! from the fuzzer's bytes, checked by [`verify_proof`] as the server checks a `Prove`. Nothing
//! may panic, whatever the key or signature bytes; and a proof signed with a key made from the
//! same bytes must verify, while the same signature over another name must not.

use super::script::Script;
use crate::identity::{
    ChannelBinding, ProofScope, SigningKey, proof_message, sign_proof, verify_proof,
};

fn array<const N: usize>(script: &mut Script<'_>) -> [u8; N] {
    std::array::from_fn(|_| script.byte())
}

/// Checks arbitrary proofs and round-trips a real one.
pub fn identity_proof(data: &[u8]) {
    let mut script = Script::new(data);
    let public_key = array::<32>(&mut script);
    let nonce = array::<32>(&mut script);
    let binding = if script.choose(2) == 0 {
        ChannelBinding::Unencrypted
    } else {
        ChannelBinding::TlsServerEndPoint(array::<32>(&mut script))
    };
    let split = script.choose(64);
    let signature_length = script.choose(80);
    let signature: Vec<u8> = (0..signature_length).map(|_| script.byte()).collect();
    let text = script.rest_text();
    let cut = text
        .char_indices()
        .map(|(at, _)| at)
        .nth(split)
        .unwrap_or(text.len());
    let (server_id, name) = text.split_at(cut);
    let scope = ProofScope {
        server_id,
        nonce: &nonce,
        binding,
    };
    // Arbitrary bytes: an answer, never a panic.
    let _ = verify_proof(&public_key, scope, name, &signature);
    let _ = proof_message(scope, name);
    // A real proof by a key made from the same bytes verifies, and only for its own name.
    let key = SigningKey::from_bytes(&public_key);
    let real = sign_proof(&key, scope, name);
    let public = key.verifying_key().to_bytes();
    if !key.verifying_key().is_weak() {
        assert_eq!(
            verify_proof(&public, scope, name, &real),
            Ok(()),
            "a real proof is refused"
        );
        let other = format!("{name}x");
        assert!(
            verify_proof(&public, scope, &other, &real).is_err(),
            "a proof for {name:?} admits {other:?}"
        );
    }
}
