<?php

declare(strict_types=1);

namespace Baas\Runtime\Transport;

/**
 * The default transport of this PHP: {@see CurlTransport} when ext-curl is loaded,
 * {@see StreamTransport} otherwise.
 */
final class Transports
{
    private function __construct()
    {
    }

    /**
     * The default transport.
     *
     * @return Transport curl's when ext-curl is loaded, else PHP's own streams
     */
    public static function default(): Transport
    {
        return extension_loaded('curl') ? new CurlTransport() : new StreamTransport();
    }
}
