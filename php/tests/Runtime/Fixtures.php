<?php

declare(strict_types=1);

/*
 * Hand-written operations as the generator writes them (the contract of Baas\Runtime\Request):
 * what the runtime's tests run through the client, the mock and the sandbox.
 */

namespace Baas\Runtime\Tests\Fixtures;

use Baas\Runtime\Decimal;
use Baas\Runtime\FieldPath;
use Baas\Runtime\OperationInfo;
use Baas\Runtime\PagedRequest;
use Baas\Runtime\Read;
use Baas\Runtime\Request;
use Baas\Runtime\UnknownValue;
use Baas\Runtime\Validator;
use Baas\Runtime\WireObject;

/** Currency (a value set). */
enum Currency: string
{
    case Kes = 'KES';
    case Usd = 'USD';
}

/** OtpType (a value set). */
enum OtpType: string
{
    case Sms = 'sms';
    case Email = 'email';
}

/** TxStatus (an integer value set). */
enum TxStatus: int
{
    case Processing = 2;
    case Succeeded = 8;
}

/** The account record, received. */
final class Account
{
    public function __construct(
        public readonly ?string $accountId = null,
        public readonly ?string $accountName = null,
        public readonly Currency|UnknownValue|null $currency = null,
        public readonly ?Decimal $balance = null,
        public readonly ?int $createTime = null,
    ) {
    }

    public static function read(mixed $value, string $at): ?self
    {
        $o = Read::object($value, $at);
        if ($o === null) {
            return null;
        }
        return new self(
            Read::string($o->get('accountId'), $at === '' ? 'accountId' : $at . '.accountId'),
            Read::string($o->get('accountName'), 'accountName'),
            Read::enum(Currency::class, $o->get('currency'), 'currency'),
            Read::decimal($o->get('balance'), 'balance'),
            Read::int($o->get('createTime'), 'createTime'),
        );
    }
}

/** @implements Request<Account> */
final class GetAccountDetailsRequest implements Request
{
    public function __construct(public readonly string $accountId)
    {
    }

    public static function operation(): OperationInfo
    {
        return new OperationInfo('getAccountDetails', '/query/getAccountDetails', false);
    }

    public function validate(Validator $v, FieldPath $at): void
    {
        $v->required($at->field('accountId'), $this->accountId !== '');
    }

    public function toWire(): WireObject
    {
        return new WireObject(['accountId' => $this->accountId]);
    }

    public function decodeResponse(mixed $data): Account
    {
        return Account::read($data, '') ?? new Account();
    }
}

/** The answer of applyForTransfer. */
final class ApplyForTransferResponse
{
    public function __construct(public readonly ?string $txId = null)
    {
    }
}

/** @implements Request<ApplyForTransferResponse> */
final class ApplyForTransferRequest implements Request
{
    public function __construct(
        public readonly string $payerAccountId,
        public readonly string $payeeBankCode,
        public readonly string $payeeAccountId,
        public readonly Currency $currency,
        public readonly Decimal $amount,
        public readonly ?string $payeeAccountName = null,
        public readonly ?string $remark = null,
    ) {
    }

    public static function operation(): OperationInfo
    {
        return new OperationInfo('applyForTransfer', '/trans/v2/applyForTransfer', true);
    }

    public function validate(Validator $v, FieldPath $at): void
    {
        $v->required($at->field('payerAccountId'), $this->payerAccountId !== '');
        $v->required($at->field('payeeBankCode'), $this->payeeBankCode !== '');
        $v->required($at->field('payeeAccountId'), $this->payeeAccountId !== '');
        $v->positiveAmount($at->field('amount'), $this->amount);
        $v->decimalPlaces($at->field('amount'), $this->amount, 2);
        if ($this->remark !== null) {
            $v->maxChars($at->field('remark'), $this->remark, 100);
        }
    }

    public function toWire(): WireObject
    {
        return new WireObject([
            'payerAccountId' => $this->payerAccountId,
            'payeeBankCode' => $this->payeeBankCode,
            'payeeAccountId' => $this->payeeAccountId,
            'payeeAccountName' => $this->payeeAccountName,
            'currency' => $this->currency,
            'amount' => $this->amount,
            'remark' => $this->remark,
        ]);
    }

    public function decodeResponse(mixed $data): ApplyForTransferResponse
    {
        $o = Read::object($data, '');
        return new ApplyForTransferResponse($o === null ? null : Read::string($o->get('txId'), 'txId'));
    }
}

/** @implements Request<null> */
final class SendOtpRequest implements Request
{
    public function __construct(public readonly string $businessId, public readonly OtpType $otpType)
    {
    }

    public static function operation(): OperationInfo
    {
        return new OperationInfo('sendOtp', '/common/sendOtp', false);
    }

    public function validate(Validator $v, FieldPath $at): void
    {
        $v->required($at->field('businessId'), $this->businessId !== '');
    }

    public function toWire(): WireObject
    {
        return new WireObject(['businessId' => $this->businessId, 'otpType' => $this->otpType]);
    }

    public function decodeResponse(mixed $data): mixed
    {
        return null;
    }
}

/** @implements Request<null> */
final class ConfirmOperationRequest implements Request
{
    public function __construct(public readonly string $businessId, public readonly string $otpCode)
    {
    }

    public static function operation(): OperationInfo
    {
        return new OperationInfo('confirmOperation', '/common/confirmOperation', true);
    }

    public function validate(Validator $v, FieldPath $at): void
    {
        $v->required($at->field('businessId'), $this->businessId !== '');
        $v->required($at->field('otpCode'), $this->otpCode !== '');
    }

    public function toWire(): WireObject
    {
        return new WireObject(['businessId' => $this->businessId, 'otpCode' => $this->otpCode]);
    }

    public function decodeResponse(mixed $data): mixed
    {
        return null;
    }
}

/** A transaction of a page. */
final class TransactionListItem
{
    public function __construct(
        public readonly ?string $txId = null,
        public readonly ?string $txType = null,
        public readonly TxStatus|UnknownValue|null $txStatus = null,
        public readonly ?Decimal $amount = null,
    ) {
    }
}

/** One page of getTransList. */
final class TransList
{
    /** @param list<TransactionListItem>|null $result */
    public function __construct(public readonly ?int $totalRows = null, public readonly ?array $result = null)
    {
    }
}

/** @implements PagedRequest<TransList, TransactionListItem> */
final class GetTransListRequest implements PagedRequest
{
    /**
     * @param list<string> $txType
     * @param list<TxStatus> $txStatus
     */
    public function __construct(
        public readonly string $accountId,
        public readonly array $txType,
        public readonly array $txStatus,
        public readonly int $startTime,
        public readonly int $endTime,
        public readonly int $pageNo,
        public readonly int $pageSize,
        public readonly int $orderByDesc = 1,
    ) {
    }

    public static function operation(): OperationInfo
    {
        return new OperationInfo('getTransList', '/query/getTransList', false);
    }

    public function validate(Validator $v, FieldPath $at): void
    {
        $v->required($at->field('accountId'), $this->accountId !== '');
        $v->listOf($at->field('txType'), $this->txType, 'string');
        $v->listOf($at->field('txStatus'), $this->txStatus, TxStatus::class);
        $v->rangeInt($at->field('pageNo'), $this->pageNo, 1, null);
        $v->rangeInt($at->field('pageSize'), $this->pageSize, null, 50);
    }

    public function toWire(): WireObject
    {
        return new WireObject([
            'accountId' => $this->accountId,
            'txType' => $this->txType,
            'txStatus' => $this->txStatus,
            'startTime' => $this->startTime,
            'endTime' => $this->endTime,
            'pageNo' => $this->pageNo,
            'pageSize' => $this->pageSize,
            'orderByDesc' => $this->orderByDesc,
        ]);
    }

    public function decodeResponse(mixed $data): TransList
    {
        $o = Read::object($data, '');
        if ($o === null) {
            return new TransList();
        }
        return new TransList(
            Read::int($o->get('totalRows'), 'totalRows'),
            Read::list($o->get('result'), 'result', static function (mixed $item, string $at): TransactionListItem {
                $i = Read::object($item, $at);
                return $i === null ? new TransactionListItem() : new TransactionListItem(
                    Read::string($i->get('txId'), $at . '.txId'),
                    Read::string($i->get('txType'), $at . '.txType'),
                    Read::enum(TxStatus::class, $i->get('txStatus'), $at . '.txStatus'),
                    Read::decimal($i->get('amount'), $at . '.amount'),
                );
            }),
        );
    }

    public function page(): int
    {
        return $this->pageNo;
    }

    public function withPage(int $page): static
    {
        return new static($this->accountId, $this->txType, $this->txStatus, $this->startTime, $this->endTime, $page, $this->pageSize, $this->orderByDesc);
    }

    public function pageSize(): ?int
    {
        return $this->pageSize;
    }

    public function pageItems(mixed $response): array
    {
        return $response->result ?? [];
    }

    public function pageTotal(mixed $response): ?int
    {
        return $response->totalRows;
    }
}
