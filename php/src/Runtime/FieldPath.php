<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * Where a value sits in a request: `FieldPath::root()->field('oderArray')->index(2)` is
 * `oderArray[2]`.
 */
final class FieldPath implements \Stringable
{
    private function __construct(private readonly string $path)
    {
    }

    /**
     * The request's params themselves.
     *
     * @return self the empty path
     */
    public static function root(): self
    {
        return new self('');
    }

    /**
     * A member of the value here.
     *
     * @param string $name the member's wire name
     * @return self the path of the member
     */
    public function field(string $name): self
    {
        return new self($this->path === '' ? $name : $this->path . '.' . $name);
    }

    /**
     * An element of the array here.
     *
     * @param int $index the element's index
     * @return self the path of the element
     */
    public function index(int $index): self
    {
        return new self($this->path . '[' . $index . ']');
    }

    /**
     * The path, e.g. `oderArray[2].amount`.
     *
     * @return string the path
     */
    public function __toString(): string
    {
        return $this->path;
    }
}
