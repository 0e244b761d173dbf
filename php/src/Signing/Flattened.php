<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The pairs of one JSON object body (without `senderKey`) and what a signer or a verifier
 * needs of it. Built by {@see Canonical::parse()} and its siblings. It holds no key.
 */
final class Flattened
{
    /**
     * The result of a reading.
     *
     * @internal built by {@see Canonical::parse()}
     * @param JsonObject $value the body read losslessly
     * @param list<string> $pairs the pairs in document order
     * @param string|null $signature the top-level `signature` when it is a string
     * @param bool $hasSignatureKey whether there is a top-level `signature`, even `null`
     * @param bool $hasSenderKeyPair whether there is a top-level `senderKey`
     * @param string|null $firstNullPath the path of the first `null`
     */
    public function __construct(
        private readonly JsonObject $value,
        private readonly array $pairs,
        private readonly ?string $signature,
        private readonly bool $hasSignatureKey,
        private readonly bool $hasSenderKeyPair,
        private readonly ?string $firstNullPath,
    ) {
    }

    /**
     * The body read losslessly (numbers as their literal text, members in document order).
     *
     * @return JsonObject the top-level object
     */
    public function value(): JsonObject
    {
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
        return $this->firstNullPath;
    }

    /**
     * The pairs and the key's pair, sorted by their bytes (`strcmp` order: UTF-8 bytes are
     * code point order).
     *
     * @return list<string>
     */
    private function sorted(#[\SensitiveParameter] string $keyPair): array
    {
        $all = $this->pairs;
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
        return implode('&', $this->sorted(Canonical::SENDER_KEY . '=' . $key->expose()));
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
        return hash('sha256', $this->canonicalStringExposingKey($key), true);
    }

    /**
     * The signature for a key: the digest in lowercase hex.
     *
     * @param PrivateKey $key the private key
     * @return string 64 lowercase hex digits
     */
    public function signatureHex(PrivateKey $key): string
    {
        return bin2hex($this->digest($key));
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
            'pairs' => count($this->pairs),
            'signature' => $this->signature !== null,
            'firstNullPath' => $this->firstNullPath,
        ];
    }
}
