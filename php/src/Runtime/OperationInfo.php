<?php

declare(strict_types=1);

namespace Baas\Runtime;

/**
 * What the runtime needs to know of an operation besides its parameters: its name, its wire path,
 * and whether it may move money (then it is never sent again once its bytes may have left).
 */
final class OperationInfo
{
    /**
     * @param string $name the spec's name, e.g. `applyForTransfer`
     * @param string $path the wire path, e.g. `/trans/v2/applyForTransfer`
     * @param bool $movesMoney whether the call may move money
     */
    public function __construct(
        public readonly string $name,
        public readonly string $path,
        public readonly bool $movesMoney,
    ) {
    }
}
