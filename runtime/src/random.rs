//! Random bytes for requestIds and salts without a system call per call.
//!
//! Asking the operating system for randomness is a system call (`getrandom`), which
//! on the machines measured for issue 24 cost more than the rest of building an
//! envelope. Each thread instead draws a 32-byte seed from the operating system's
//! CSPRNG once and then produces output blocks as `SHA-256(seed || counter)`, a
//! counter-mode generator on SHA-256 (a PRF for a secret seed): without the seed, an
//! output says nothing about another one. The seed is drawn again from the operating
//! system after 65,536 blocks (`RESEED_AFTER`), so a seed read out of memory exposes at most
//! that many outputs.
//!
//! A process that forks keeps the forking thread's state in the child, as every
//! user-space generator does (the child and the parent would then draw the same
//! blocks): call [`reseed`] in the child after a `fork` that does not `exec`.

use std::cell::RefCell;

use sha2::{Digest, Sha256};

/// Blocks produced from one seed.
pub(crate) const RESEED_AFTER: u64 = 1 << 16;

struct Generator {
    seed: [u8; 32],
    counter: u64,
}

thread_local! {
    static GENERATOR: RefCell<Option<Generator>> = const { RefCell::new(None) };
}

/// Fills `out` (at most 32 bytes are random; longer buffers are refused) from this
/// thread's generator, seeding it from the operating system on first use and every
/// [`RESEED_AFTER`] blocks.
pub(crate) fn fill(out: &mut [u8]) -> Result<(), getrandom::Error> {
    GENERATOR.with(|cell| {
        let mut state = cell.borrow_mut();
        let generator = match state.as_mut() {
            Some(g) if g.counter < RESEED_AFTER => g,
            _ => state.insert(seeded()?),
        };
        let block: [u8; 32] = Sha256::new()
            .chain_update(generator.seed)
            .chain_update(generator.counter.to_le_bytes())
            .finalize()
            .into();
        generator.counter += 1;
        let Some(random) = block.get(..out.len()) else {
            return Err(getrandom::Error::UNSUPPORTED);
        };
        out.copy_from_slice(random);
        Ok(())
    })
}

fn seeded() -> Result<Generator, getrandom::Error> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)?;
    Ok(Generator { seed, counter: 0 })
}

/// Draws a new seed for this thread from the operating system (for a child process
/// after `fork`; nothing else needs it).
pub fn reseed() -> Result<(), getrandom::Error> {
    let fresh = seeded()?;
    GENERATOR.with(|cell| *cell.borrow_mut() = Some(fresh));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_differ_and_reseeding_changes_the_stream() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..1000 {
            let mut out = [0u8; 28];
            fill(&mut out).unwrap();
            assert!(seen.insert(out), "a block repeated");
        }
        // After RESEED_AFTER blocks the generator starts from a new seed.
        GENERATOR.with(|cell| {
            if let Some(g) = cell.borrow_mut().as_mut() {
                g.counter = RESEED_AFTER;
            }
        });
        let mut out = [0u8; 28];
        fill(&mut out).unwrap();
        GENERATOR.with(|cell| assert_eq!(cell.borrow().as_ref().unwrap().counter, 1));
        assert!(seen.insert(out));
        // Threads have generators of their own, seeded apart.
        let other = std::thread::spawn(|| {
            let mut out = [0u8; 28];
            fill(&mut out).unwrap();
            out
        })
        .join()
        .unwrap();
        assert!(seen.insert(other));
        let mut long = [0u8; 33];
        assert!(fill(&mut long).is_err());
        reseed().unwrap();
        GENERATOR.with(|cell| assert_eq!(cell.borrow().as_ref().unwrap().counter, 0));
    }
}
