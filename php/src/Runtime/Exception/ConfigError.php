<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The configuration cannot be used; {@see $field} names the setting. Nothing was sent.
 */
final class ConfigError extends NotSentException
{
    /**
     * @param string $field the setting, e.g. `baseUrl`
     * @param string $message what is wrong with it
     */
    public function __construct(public readonly string $field, string $message)
    {
        parent::__construct("invalid configuration `" . $field . "`: " . $message);
    }
}
