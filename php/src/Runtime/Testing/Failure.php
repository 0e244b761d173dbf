<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

/**
 * A failure of the exchange itself, for a {@see MockService} stub to answer with.
 */
enum Failure
{
    /** The connection never opened: nothing was sent. */
    case NotSent;
    /** The request left and no answer came back: the outcome is unknown. */
    case NoAnswer;
    /** An HTTP 502 page instead of an answer. */
    case GatewayError;
}
