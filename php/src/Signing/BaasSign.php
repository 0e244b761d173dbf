<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * `baas-sign`: compute or check the signature of a message, exactly as the library does,
 * for chasing a `12005 Invalid signature`. `bin/baas-sign` runs it.
 *
 *     BAAS_PRIVATE_KEY=... php bin/baas-sign < envelope.json            # canonical string, then signature
 *     BAAS_PRIVATE_KEY=... php bin/baas-sign --attach < envelope.json   # the body to send
 *     BAAS_PRIVATE_KEY=... php bin/baas-sign --verify < message.json    # exit 0 when it holds
 *
 * Reads one JSON message on stdin; the key comes from the environment variable
 * `BAAS_PRIVATE_KEY` (never from the command line) and is never printed: every message has
 * its text replaced by `[redacted]`.
 *
 * A `null` member is skipped when signing, as the document says: the body is signed (or
 * attached) and one warning line per skipped member goes to stderr.
 *
 * Exit codes: 0 signed, attached, or the signature holds; 1 `--verify`: the signature is
 * missing or wrong, or a re-cut rule refuses the body; 2 usage error, no key, an input that
 * is not a usable JSON object, or a body that is not to be signed (a re-cut rule, a `null`
 * array element, already signed, carrying the key).
 */
final class BaasSign
{
    /** The environment variable that holds the private key. */
    public const KEY_VARIABLE = 'BAAS_PRIVATE_KEY';
    /** What `--version` prints after the command's name (the Rust `baas-sign`'s version). */
    public const VERSION = '0.1.1';

    private const PROG = 'baas-sign';
    private const USAGE = 'usage: ' . self::PROG . ' [-h] [-V] [--verify | --attach]';
    private const HELP = self::USAGE . "\n\n"
        . "Compute or check the signature of a BaaS message read on stdin; the key is taken\n"
        . 'from the environment variable ' . self::KEY_VARIABLE . ". By default prints the canonical\n"
        . "string (key redacted), then the signature as the last line.\n\n"
        . "options:\n"
        . "  -h, --help     show this help message and exit\n"
        . "  -V, --version  show the version and exit\n"
        . "  --verify       check the message's own `signature`: exit 0 when it holds, 1\n"
        . "                 otherwise (also when a re-cut rule refuses the body)\n"
        . "  --attach       print the message with its signature added, as it is to be sent\n";

    private function __construct()
    {
    }

    /**
     * Runs the command.
     *
     * @param list<string> $args the arguments after the command's name
     * @param resource $stdin the message (read only once the key is known)
     * @param resource $stdout where results go
     * @param resource $stderr where diagnostics go (the key redacted)
     * @param array<string, string> $environ the environment (`BAAS_PRIVATE_KEY`)
     * @return int the exit code
     */
    public static function run(array $args, $stdin, $stdout, $stderr, #[\SensitiveParameter] array $environ): int
    {
        $verify = false;
        $attach = false;
        $unknown = [];
        foreach ($args as $arg) {
            switch ($arg) {
                case '-h':
                case '--help':
                    fwrite($stdout, self::HELP);
                    return 0;
                case '-V':
                case '--version':
                    fwrite($stdout, self::PROG . ' ' . self::VERSION . "\n");
                    return 0;
                case '--verify':
                    if ($attach) {
                        return self::usage($stderr, 'argument --verify: not allowed with argument --attach');
                    }
                    $verify = true;
                    break;
                case '--attach':
                    if ($verify) {
                        return self::usage($stderr, 'argument --attach: not allowed with argument --verify');
                    }
                    $attach = true;
                    break;
                default:
                    $unknown[] = $arg;
            }
        }
        if ($unknown !== []) {
            return self::usage($stderr, 'unrecognized arguments: ' . implode(' ', $unknown));
        }
        $secret = $environ[self::KEY_VARIABLE] ?? '';
        if (!is_string($secret) || $secret === '') {
            fwrite($stderr, self::PROG . ': set the private key in the environment variable ' . self::KEY_VARIABLE . "\n");
            return 2;
        }
        $key = new PrivateKey($secret);
        unset($secret);
        $body = stream_get_contents($stdin);
        if (!is_string($body)) {
            self::say($stderr, $key, 'cannot read stdin');
            return 2;
        }
        return self::body($verify, $attach, $body, $key, $stdout, $stderr);
    }

    /**
     * @param resource $stdout
     * @param resource $stderr
     */
    private static function body(bool $verify, bool $attach, #[\SensitiveParameter] string $body, PrivateKey $key, $stdout, $stderr): int
    {
        if ($verify) {
            try {
                $holding = Signer::check($body, $key);
                if ($holding->holds()) {
                    fwrite($stdout, 'signature OK: ' . $holding->expected . "\n");
                    return 0;
                }
            } catch (CanonicalException) {
                // Read again below, to say why.
            }
        }
        $refusal = null;
        try {
            // Signing reads a body as verifying does: null members skipped, null elements refused (R2).
            $flat = Canonical::parseForSigning($body);
        } catch (CanonicalException $e) {
            if ($e->kind() !== CanonicalException::AMBIGUOUS) {
                self::say($stderr, $key, 'the input is not a usable JSON object: ' . $e->getMessage());
                return 2;
            }
            $refusal = $e;
            try {
                $flat = Canonical::parseLoose($body);
            } catch (CanonicalException $again) {
                self::say($stderr, $key, 'the input is not a usable JSON object: ' . $again->getMessage());
                return 2;
            }
        }
        if ($flat->hasSenderKeyPair()) {
            self::say($stderr, $key, 'warning: the input has a top-level `senderKey`; the key is never sent (the '
                . 'algorithm adds it), so this body does not sign like the message sent');
        }
        if ($attach) {
            if ($flat->hasSignatureKey()) {
                self::say($stderr, $key, 'the input already has a `signature`; remove it to sign again');
                return 2;
            }
            if ($flat->hasSenderKeyPair() || self::containsKey($body, $flat, $key)) {
                self::say($stderr, $key, 'the input contains the private key; the key is never sent, remove it');
                return 2;
            }
            if ($refusal !== null) {
                self::say($stderr, $key, 'not signed: ' . $refusal->getMessage());
                return 2;
            }
            try {
                $signed = Signer::attachSignature($body, $flat->signatureHex($key));
            } catch (CanonicalException $e) {
                self::say($stderr, $key, 'cannot attach the signature: ' . $e->getMessage());
                return 2;
            }
            self::warnSkipped($stderr, $key, $flat);
            fwrite($stdout, $signed . "\n");
            return 0;
        }
        $canonicalText = $flat->canonicalStringRedacted($key);
        if ($verify) {
            if ($refusal !== null) {
                self::say($stderr, $key, 'REFUSED: ' . $refusal->getMessage() . "\n  (every verifier refuses this "
                    . "body, whatever its signature)\n  canonical string (key redacted):\n" . $canonicalText);
                return 1;
            }
            $expected = $flat->signatureHex($key);
            $received = $flat->signature();
            if ($received !== null && Signer::constantTimeEquals($expected, $received)) {
                fwrite($stdout, 'signature OK: ' . $expected . "\n");
                return 0;
            }
            $what = $received === null ? 'signature MISSING' : "signature MISMATCH\n  received: " . $received;
            self::say($stderr, $key, $what . "\n  expected: " . $expected . "\n  canonical string (key redacted):\n"
                . $canonicalText);
            return 1;
        }
        if ($refusal !== null) {
            self::say($stderr, $key, 'not signed: ' . $refusal->getMessage() . "\n  canonical string (key redacted):\n"
                . $canonicalText);
            return 2;
        }
        self::warnSkipped($stderr, $key, $flat);
        fwrite($stdout, $canonicalText . "\n" . $flat->signatureHex($key) . "\n");
        return 0;
    }

    /**
     * One warning line per `null` member skipped in what was signed.
     *
     * @param resource $stderr
     */
    private static function warnSkipped($stderr, PrivateKey $key, Flattened $flat): void
    {
        foreach ($flat->skippedNulls() as $path) {
            self::say($stderr, $key, 'warning: ' . Signer::skippedWarning($path, $key));
        }
    }

    /** @param resource $stderr */
    private static function usage($stderr, string $problem): int
    {
        fwrite($stderr, self::USAGE . "\n" . self::PROG . ': error: ' . $problem . "\n");
        return 2;
    }

    /**
     * Every diagnostic goes through here, which redacts the key.
     *
     * @param resource $stderr
     */
    private static function say($stderr, PrivateKey $key, #[\SensitiveParameter] string $text): void
    {
        fwrite($stderr, self::PROG . ': ' . $key->redact($text) . "\n");
    }

    /**
     * True when the key shows in the body: in its bytes as written, or in any key or value
     * once unescaped, or across a pair's path and value.
     */
    private static function containsKey(#[\SensitiveParameter] string $body, Flattened $flat, PrivateKey $key): bool
    {
        if ($key->isEmpty()) {
            return false;
        }
        if ($key->occursIn($body)) {
            return true;
        }
        foreach ($flat->pairs() as $pair) {
            if ($key->occursIn($pair)) {
                return true;
            }
        }
        return false;
    }
}
