<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * What is known of a failed call's effect: every error of a call says one of these
 * ({@see Exception\BaasException::outcome()}).
 */
enum Outcome: string
{
    /**
     * Nothing was sent (invalid request, configuration, encoding, or the connection provably
     * never opened): safe to fix and send again.
     */
    case NotSent = 'not_sent';

    /**
     * The service answered with a result code other than success, in an answer whose
     * signature holds. An unsigned or wrongly signed refusal proves nothing: Unknown.
     */
    case Refused = 'refused';

    /** The bytes may have reached the service and no verified answer came back. */
    case Unknown = 'unknown';
}
