<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The base of every exception of this library; its message never contains the private key.
 *
 * A body that does not verify aborts whatever was about to use it: catch
 * {@see VerifyException} or {@see NotificationException} where you answer the request.
 */
abstract class SigningException extends \RuntimeException
{
}
