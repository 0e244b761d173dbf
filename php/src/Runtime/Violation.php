<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * One violated rule: the field's path (`oderArray[2].amount`; for rules across fields, the paths
 * joined with `|`), the rule, and what is wrong.
 */
final class Violation implements \Stringable
{
    /**
     * @param string $field the field's path
     * @param RuleKind $rule the rule broken
     * @param string $message what is wrong, e.g. `has 41 characters, at most 40 allowed`
     */
    public function __construct(
        public readonly string $field,
        public readonly RuleKind $rule,
        public readonly string $message,
    ) {
    }

    /**
     * `field: message`.
     *
     * @return string the violation in words
     */
    public function __toString(): string
    {
        return $this->field . ': ' . $this->message;
    }
}
