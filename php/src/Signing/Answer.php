<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * An answer verified against the request it answers ({@see Signer::verifyAnswer()}): the
 * service's `code` and `msg`, whether its signature held, and the body read losslessly. A
 * success (`00000`) is always signed and echoes the request's requestId; a refusal may come
 * unsigned (the API document allows it), and then its code proves nothing (`verified` is
 * false).
 */
final class Answer
{
    /** The result code of a success. */
    public const SUCCESS = '00000';

    /**
     * A verified answer.
     *
     * @param string $code the service's result code (`00000` is success)
     * @param string|null $msg the service's message, if any
     * @param bool $verified whether the signature held (always true for a success)
     * @param Flattened $body the body ({@see Flattened::value()} is its JSON; read `data` from it)
     */
    public function __construct(
        public readonly string $code,
        public readonly ?string $msg,
        public readonly bool $verified,
        public readonly Flattened $body,
    ) {
    }

    /**
     * Whether the service did what was asked (`code` is `00000`).
     *
     * @return bool true for a success
     */
    public function success(): bool
    {
        return $this->code === self::SUCCESS;
    }
}
