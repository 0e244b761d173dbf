<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The signature of the received answer or notification does not hold.
 */
final class SignatureInvalid extends BaasException
{
    /** The error. */
    public function __construct()
    {
        parent::__construct("the signature of the received response or notification does not verify: check "
            . "that the configured private key is the one the service signs with, and compare the received "
            . "body with `baas-sign --verify`");
    }
}
