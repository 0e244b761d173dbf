<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The received answer or notification carries no signature.
 */
final class SignatureMissing extends BaasException
{
    /** The error. */
    public function __construct()
    {
        parent::__construct("the received response or notification carries no signature, so it is refused "
            . "(a success response without one is accepted only with Config acceptUnsignedSuccess)");
    }
}
