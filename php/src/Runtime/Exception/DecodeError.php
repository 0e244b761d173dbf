<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The answer (or a JSON value in it) could not be decoded. {@see $status} is the HTTP status when
 * there was one; {@see $snippet} the first bytes of the body, the key redacted.
 */
final class DecodeError extends BaasException
{
    /** The longest body excerpt kept, in bytes. */
    public const SNIPPET_MAX_BYTES = 256;

    /** The first bytes of the body (at most {@see SNIPPET_MAX_BYTES}), the key redacted. */
    public readonly string $snippet;

    /**
     * @param string $message what could not be decoded
     * @param int|null $status the HTTP status, if any
     * @param string $body the body (only its start is kept; redact the key before)
     */
    public function __construct(string $message, public readonly ?int $status = null, #[\SensitiveParameter] string $body = "")
    {
        $this->snippet = self::snippet($body);
        parent::__construct("cannot decode the response" . ($status !== null ? " (HTTP " . $status . ")" : "")
            . ": " . $message . ($body === "" ? "" : "; body starts " . json_encode($this->snippet, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE)));
    }

    /**
     * A gateway status (502, 503, 504) may pass; nothing else does.
     *
     * @return bool whether trying again may help
     */
    public function isRetryable(): bool
    {
        return in_array($this->status, [502, 503, 504], true);
    }

    /**
     * At most {@see SNIPPET_MAX_BYTES} bytes of a body, cut on a character boundary, with `…`
     * when something was cut.
     *
     * @param string $body the body
     * @return string the excerpt
     */
    public static function snippet(#[\SensitiveParameter] string $body): string
    {
        if (strlen($body) <= self::SNIPPET_MAX_BYTES) {
            return $body;
        }
        $head = substr($body, 0, self::SNIPPET_MAX_BYTES);
        // Drop a character split by the cut (continuation bytes and their lead byte).
        $head = preg_replace("/[\xC0-\xF7][\x80-\xBF]*$/", "", $head) ?? $head;
        return $head . "…";
    }
}
