<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * SHA-256 of a canonical string: OpenSSL's (`openssl_digest`, which uses the processor's SHA
 * instructions where there are some: 4 to 20 times `hash('sha256')` on this project's bench)
 * when the openssl extension is loaded and the text is at least 256 bytes, else
 * `hash('sha256')`. Both give the same digest; the tests compare them on every shared vector
 * and on long texts.
 *
 * @internal
 */
final class Sha256
{
    /** A text shorter than this is hashed by hash() (OpenSSL's fixed cost per call is higher). */
    private const OPENSSL_FROM = 256;

    /** Whether OpenSSL's digest is used (null: not decided yet). */
    private static ?bool $openssl = null;
    /** Whether OpenSSL's SHA-256 is there (null: not looked up yet). */
    private static ?bool $available = null;

    private function __construct()
    {
    }

    /**
     * The digest of a text.
     *
     * @param string $data the text (a canonical string holds the key: never log it)
     * @param bool $raw the 32 bytes, else 64 lowercase hex digits
     * @return string the digest
     */
    public static function of(#[\SensitiveParameter] string $data, bool $raw = false): string
    {
        if (strlen($data) >= self::OPENSSL_FROM && (self::$openssl ?? self::openssl())) {
            $digest = openssl_digest($data, 'sha256', $raw);
            if (is_string($digest)) {
                return $digest;
            }
        }
        return hash('sha256', $data, $raw);
    }

    /**
     * Whether OpenSSL's digest is used.
     *
     * @return bool true when it is
     */
    public static function openssl(): bool
    {
        return self::$openssl ??= self::available();
    }

    /**
     * Chooses the implementation (for the tests and the benchmark, which compare both).
     *
     * @param bool $openssl true for OpenSSL's when the extension is loaded, false for `hash()`
     * @return bool whether OpenSSL's is used
     */
    public static function useOpenssl(bool $openssl): bool
    {
        return self::$openssl = $openssl && self::available();
    }

    private static function available(): bool
    {
        return self::$available ??= function_exists('openssl_digest') && in_array('sha256', openssl_get_md_methods(), true);
    }
}
