<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

use Baas\Runtime\Violation;

/**
 * The request breaks rules of the spec; nothing was signed or sent. {@see $violations} names
 * each field and rule.
 */
final class InvalidRequest extends NotSentException
{
    /**
     * @param list<Violation> $violations every violated rule
     */
    public function __construct(public readonly array $violations)
    {
        $n = count($violations);
        parent::__construct("invalid request: " . $n . " rule" . ($n === 1 ? "" : "s") . " violated: "
            . implode("; ", array_map(static fn (Violation $v): string => (string) $v, $violations)));
    }

    /**
     * The violations of one field (by its path, `payeeAccountId` or `oderArray[2].amount`).
     *
     * @param string $field the path
     * @return list<Violation> its violations
     */
    public function of(string $field): array
    {
        return array_values(array_filter($this->violations, static fn (Violation $v): bool => $v->field === $field));
    }
}
