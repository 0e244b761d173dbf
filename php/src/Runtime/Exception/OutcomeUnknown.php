<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * A call that may move money failed after its bytes may have reached the service, without a
 * verified answer: it may have taken effect. Never retried: look it up first (by
 * {@see requestId()}, or with the operation's query call). {@see getPrevious()} is the failure of
 * the last attempt.
 */
final class OutcomeUnknown extends BaasException
{
    /**
     * @param BaasException $cause the failure of the last attempt
     */
    public function __construct(public readonly BaasException $cause)
    {
        parent::__construct("may have taken effect: " . $cause->detail()
            . "; look the application up before sending it again", $cause);
    }

    /**
     * Always Unknown.
     *
     * @return \Baas\Runtime\Outcome Unknown
     */
    public function outcome(): \Baas\Runtime\Outcome
    {
        return \Baas\Runtime\Outcome::Unknown;
    }
}
