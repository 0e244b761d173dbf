<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The pairs of one JSON object body (without `senderKey`) and what a signer or a verifier
 * needs of it. Built by {@see Canonical::parse()} and its siblings. It holds no key.
 */
final class Flattened
{
    /** The pairs in document order, once read ({@see CanonicalReader}). */
    private ?array $pairs;
    /** The body read losslessly, once read. */
    private ?JsonObject $value;

    /**
     * The result of a reading.
     *
     * @internal built by {@see Canonical::parse()}
     * @param JsonObject|null $value the body read losslessly, or null to read it when asked
     * @param list<string>|null $pairs the pairs in document order, or null to read them when
     *     asked (then `$sorted` holds them)
     * @param string|null $signature the top-level `signature` when it is a string
     * @param bool $hasSignatureKey whether there is a top-level `signature`, even `null`
     * @param bool $hasSenderKeyPair whether there is a top-level `senderKey`
     * @param list<string> $nullPaths the paths of the `null`s skipped, in document order
     * @param list<string>|null $sorted the pairs already sorted ({@see FastReader}): with
     *     `$keyAt` -1, two strings, the pairs before the `senderKey` pair and those after it,
     *     each joined with `&`; else every pair, `senderKey=` (the key's place) at `$keyAt`
     * @param string|null $body the body, to read what was not read yet (read with the re-cut
     *     rules, `null` members accepted)
     * @param int $keyAt where `senderKey=` is in `$sorted`, or -1
     */
    public function __construct(
        ?JsonObject $value,
        ?array $pairs,
        private readonly ?string $signature,
        private readonly bool $hasSignatureKey,
        private readonly bool $hasSenderKeyPair,
        private readonly array $nullPaths,
        private readonly ?array $sorted = null,
        #[\SensitiveParameter] private readonly ?string $body = null,
        private readonly int $keyAt = -1,
    ) {
        $this->value = $value;
        $this->pairs = $pairs;
    }

    /**
     * The result of pairs written while serializing a body (the runtime's JSON writer): no
     * reading of the body, which the writer vouches for (no re-cut rule broken, no `null`, no
     * top-level `signature` or `senderKey`, within the limits).
     *
     * @internal
     * @param list<string> $pairs the pairs, in any order
     * @param string $body the body written
     * @return self the body's pairs
     */
    public static function ofWrittenPairs(array $pairs, #[\SensitiveParameter] string $body): self
    {
        $pairs[] = Canonical::SENDER_KEY . '=';
        sort($pairs, SORT_STRING);
        $at = (int) array_search(Canonical::SENDER_KEY . '=', $pairs, true);
        return new self(null, null, null, false, false, [], $pairs, $body, $at);
    }

    /**
     * Sorted pairs holding `senderKey=` (the key's place; no other pair is `senderKey=`, rule
     * R4), joined on either side of it.
     *
     * @internal
     * @param list<string> $sorted the pairs, sorted, with `senderKey=`
     * @return array{string, string} the pairs before it and after it, each joined with `&`
     */
    public static function aroundKey(array $sorted): array
    {
        $at = (int) array_search(Canonical::SENDER_KEY . '=', $sorted, true);
        return [implode('&', array_slice($sorted, 0, $at)), implode('&', array_slice($sorted, $at + 1))];
    }

    /** Reads the body with {@see CanonicalReader} for what the fast reading did not keep. */
    private function readFully(): void
    {
        $reader = new CanonicalReader((string) $this->body, true, true);
        $this->value = $reader->top();
        $this->pairs = $reader->pairs;
    }

    /**
     * The body read losslessly (numbers as their literal text, members in document order).
     *
     * @return JsonObject the top-level object
     */
    public function value(): JsonObject
    {
        if ($this->value === null) {
            $this->value = FastReader::lossless((string) $this->body);
        }
        if ($this->value === null) {
            $this->readFully();
        }
        return $this->value;
    }

    /**
     * The `path=value` pairs in document order (the top-level `signature` left out,
     * `senderKey` not added).
     *
     * @return list<string> the pairs
     */
    public function pairs(): array
    {
        if ($this->pairs === null) {
            $this->readFully();
        }
        return $this->pairs;
    }

    /**
     * The top-level `signature` when it is a string.
     *
     * @return string|null the received signature, or null
     */
    public function signature(): ?string
    {
        return $this->signature;
    }

    /**
     * Whether the body has a top-level `signature` member (even `null`).
     *
     * @return bool true when it has one
     */
    public function hasSignatureKey(): bool
    {
        return $this->hasSignatureKey;
    }

    /**
     * Whether the body has a top-level `senderKey` (seen only when read without the re-cut
     * rules, which refuse it).
     *
     * @return bool true when it has one
     */
    public function hasSenderKeyPair(): bool
    {
        return $this->hasSenderKeyPair;
    }

    /**
     * The path of the first `null` (skipped in the canonical string), if any.
     *
     * @return string|null the path, or null
     */
    public function firstNullPath(): ?string
    {
        return $this->nullPaths[0] ?? null;
    }

    /**
     * The paths of the `null` members left out of the canonical string, in document order:
     * the document skips null values when signing, so a body holding them signs as if they
     * were absent. A signer warns about each one (a message sent by the SDK never holds one).
     *
     * @return list<string> the paths
     */
    public function skippedNulls(): array
    {
        return $this->nullPaths;
    }

    /**
     * The pairs and the key's pair, sorted by their bytes (`strcmp` order: UTF-8 bytes are
     * code point order).
     *
     * @return list<string>
     */
    private function sorted(#[\SensitiveParameter] string $keyPair): array
    {
        $all = $this->pairs();
        $all[] = $keyPair;
        sort($all, SORT_STRING);
        return $all;
    }

    /**
     * The canonical string with the key itself in the `senderKey` pair: what is hashed.
     * Never print or log it; {@see canonicalStringRedacted()} is for showing.
     *
     * @param PrivateKey $key the private key
     * @return string the canonical string, holding the key
     */
    public function canonicalStringExposingKey(PrivateKey $key): string
    {
        if ($this->sorted === null) {
            return implode('&', $this->sorted(Canonical::SENDER_KEY . '=' . $key->expose()));
        }
        if ($this->keyAt >= 0) {
            $pairs = $this->sorted;
            $pairs[$this->keyAt] .= $key->expose();
            return implode('&', $pairs);
        }
        return implode('', $this->keyed($key));
    }

    /**
     * The canonical string in three parts (the pairs before the key's, the key's pair with
     * its `&`s, the pairs after), from pairs read already sorted.
     *
     * @return array{string, string, string}
     */
    private function keyed(PrivateKey $key): array
    {
        [$head, $tail] = $this->sorted ?? ['', ''];
        return [
            $head,
            ($head === '' ? '' : '&') . Canonical::SENDER_KEY . '=' . $key->expose() . ($tail === '' ? '' : '&'),
            $tail,
        ];
    }

    /**
     * The canonical string with the key shown as `[redacted]` wherever it appears: in the
     * added pair, and inside any other pair.
     *
     * @param PrivateKey $key the private key
     * @return string the canonical string, safe to show
     */
    public function canonicalStringRedacted(PrivateKey $key): string
    {
        $out = [];
        foreach ($this->sorted(Canonical::SENDER_KEY . '=' . $key->expose()) as $pair) {
            if (strstr($pair, '=', true) === Canonical::SENDER_KEY) {
                $out[] = Canonical::SENDER_KEY . '=' . PrivateKey::REDACTED;
            } else {
                $out[] = $key->redact($pair);
            }
        }
        return implode('&', $out);
    }

    /**
     * SHA-256 of the canonical string.
     *
     * @param PrivateKey $key the private key
     * @return string the 32-byte digest (raw bytes)
     */
    public function digest(PrivateKey $key): string
    {
        return $this->hashed($key, true);
    }

    /** SHA-256 of the canonical string, raw or in lowercase hex. */
    private function hashed(PrivateKey $key, bool $raw): string
    {
        if ($this->sorted === null || $this->keyAt >= 0) {
            // A short canonical string (or one listed pair by pair): hashed in one call.
            return Sha256::of($this->canonicalStringExposingKey($key), $raw);
        }
        [$head, $middle, $tail] = $this->keyed($key);
        if (Sha256::openssl()) {
            return Sha256::of($head . $middle . $tail, $raw);
        }
        // hash(): no copy of the canonical string, its three parts hashed in turn.
        $context = hash_init('sha256');
        hash_update($context, $head);
        hash_update($context, $middle);
        hash_update($context, $tail);
        return hash_final($context, $raw);
    }

    /**
     * The signature for a key: the digest in lowercase hex.
     *
     * @param PrivateKey $key the private key
     * @return string 64 lowercase hex digits
     */
    public function signatureHex(PrivateKey $key): string
    {
        return $this->hashed($key, false);
    }

    /**
     * What `var_dump` and `print_r` show: the counts and flags, never the pairs (which a
     * careless body may fill with secrets).
     *
     * @return array<string, mixed> a description for debugging
     */
    public function __debugInfo(): array
    {
        return [
            'pairs' => $this->pairs === null ? 'not listed' : count($this->pairs),
            'signature' => $this->signature !== null,
            'skippedNulls' => $this->nullPaths,
        ];
    }
}
