<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The fast reader cannot vouch for a body: the reader decides.
 *
 * @internal
 */
final class FastReaderDeclined extends \Exception
{
}
