<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * The bytes of a document (a PDF, an image) that the API carries as Base64 text (spec type
 * `document`, decision `document-type`). A PHP string cannot tell bytes from Base64 text, so a
 * document field takes this value object: build it from bytes or a file and the SDK sends
 * standard Base64 with padding (RFC 4648 section 4). `var_dump`, `print_r` and string casts
 * show its size only, since documents are large and may hold personal data. `var_export` shows
 * the bytes: it reads the object's properties, as `==` and PHPUnit's `assertEquals` do, and a
 * document kept out of its properties (a closure, a `WeakMap`) would no longer compare by its
 * bytes (two documents of different bytes would be "equal", or of the same bytes not).
 */
final class Document implements \Stringable
{
    private function __construct(private readonly string $bytes)
    {
    }

    /**
     * A document of these bytes (raw bytes, not Base64).
     *
     * @param string $bytes the bytes
     * @return self the document
     */
    public static function fromBytes(string $bytes): self
    {
        return new self($bytes);
    }

    /**
     * The file at `$path`, read whole.
     *
     * @param string $path the file
     * @return self the document
     * @throws \RuntimeException when the file cannot be read (the message names the file)
     */
    public static function fromPath(string $path): self
    {
        $bytes = is_file($path) && is_readable($path) ? @file_get_contents($path) : false;
        if (!is_string($bytes)) {
            throw new \RuntimeException('cannot read the document ' . $path);
        }
        return new self($bytes);
    }

    /**
     * A document received as Base64 text, read leniently: white space skipped, the URL-safe
     * symbols `-`/`_` accepted, padding optional. Text that is still not Base64 is kept as it
     * came (its bytes): an answer never fails over a document.
     *
     * @param string $text the received text
     * @return self the document
     */
    public static function fromReceivedText(string $text): self
    {
        $symbols = strtr((string) preg_replace('/\s+/', '', $text), '-_', '+/');
        $body = rtrim($symbols, '=');
        $padded = strlen($symbols) - strlen($body);
        $fits = $padded <= 2 && strlen($body) % 4 !== 1 && ($padded === 0 || strlen($symbols) % 4 === 0);
        if ($fits && preg_match('~^[A-Za-z0-9+/]*$~D', $body) === 1) {
            $bytes = base64_decode($body, true);
            if (is_string($bytes)) {
                return new self($bytes);
            }
        }
        return new self($text);
    }

    /**
     * The bytes.
     *
     * @return string the bytes
     */
    public function bytes(): string
    {
        return $this->bytes;
    }

    /**
     * The size in bytes (what `base64_max_bytes` limits).
     *
     * @return int the size
     */
    public function length(): int
    {
        return strlen($this->bytes);
    }

    /**
     * The standard Base64 text with padding, as sent.
     *
     * @return string the text
     */
    public function base64(): string
    {
        return base64_encode($this->bytes);
    }

    /**
     * Whether another document holds the same bytes.
     *
     * @param Document $other the other document
     * @return bool true when equal
     */
    public function equals(Document $other): bool
    {
        return $this->bytes === $other->bytes;
    }

    /**
     * The size only, never the bytes.
     *
     * @return string `Document(12 bytes)`
     */
    public function __toString(): string
    {
        return 'Document(' . strlen($this->bytes) . ' bytes)';
    }

    /**
     * What `var_dump` and `print_r` show: the size only.
     *
     * @return array{length: int} the size
     */
    public function __debugInfo(): array
    {
        return ['length' => strlen($this->bytes)];
    }
}
