// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title SandboxToken
/// @notice The test USDC and EURC of peerpay's sandbox chain: an ERC-20 that also speaks EIP-2612
/// (permit) and EIP-3009 (transfer/receive with authorization) under an EIP-712 domain shaped like
/// Circle's tokens (name "USD Coin" or "EURC", version "2"), so that wallets, x402 clients and
/// peerpay's own sweeper sign exactly what they would sign on Polygon.
///
/// The code is placed at fixed addresses with anvil_setCode, so no constructor ever runs and the
/// contract has no immutables: its configuration lives in storage, written once by initialize(),
/// and the EIP-712 domain separator is computed from storage and block.chainid on every use.
///
/// Storage layout rule: variables are only ever appended. A sandbox chain kept in DATA_DIR holds
/// balances in these slots, and the deployment code refuses to swap in different bytecode.
contract SandboxToken {
    // ---- ERC-20 and EIP-712 constants --------------------------------------------------------

    string private constant DOMAIN_VERSION = "2";

    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );

    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    /// Upper bound of s for a non-malleable ECDSA signature (EIP-2): half the secp256k1 order.
    uint256 private constant SECP256K1_HALF_ORDER =
        0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;

    // ---- Storage (append only, see the note above) -------------------------------------------

    bool private _initialized;
    string private _name;
    string private _symbol;
    uint8 private _decimals;
    address private _owner;
    uint256 private _totalSupply;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => bool) private _minters;
    mapping(address => uint256) private _permitNonces;
    mapping(address => mapping(bytes32 => bool)) private _authorizationStates;

    // ---- Events and errors -------------------------------------------------------------------

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);
    event Initialized(string name, string symbol, uint8 decimals, address owner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event MinterConfigured(address indexed minter, bool allowed);

    error AlreadyInitialized();
    error NotInitialized();
    error NotOwner();
    error NotMinter();
    error ZeroAddress();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed);
    error InvalidSignature();
    error PermitExpired(uint256 deadline);
    error AuthorizationNotYetValid(uint256 validAfter);
    error AuthorizationExpired(uint256 validBefore);
    error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce);
    error CallerMustBePayee(address caller, address payee);

    // ---- Initialisation and roles ------------------------------------------------------------

    /// Sets the token's identity and owner; callable exactly once, because the code arrives by
    /// anvil_setCode and never runs a constructor. The caller places the code and initialises it
    /// in one step, then checks owner() so that nobody else can have initialised it first.
    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address owner_) external {
        if (_initialized) revert AlreadyInitialized();
        if (owner_ == address(0)) revert ZeroAddress();
        _initialized = true;
        _name = name_;
        _symbol = symbol_;
        _decimals = decimals_;
        _owner = owner_;
        emit Initialized(name_, symbol_, decimals_, owner_);
        emit OwnershipTransferred(address(0), owner_);
    }

    function initialized() external view returns (bool) {
        return _initialized;
    }

    function owner() external view returns (address) {
        return _owner;
    }

    function isMinter(address account) public view returns (bool) {
        return account == _owner || _minters[account];
    }

    modifier onlyOwner() {
        if (!_initialized) revert NotInitialized();
        if (msg.sender != _owner) revert NotOwner();
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(_owner, newOwner);
        _owner = newOwner;
    }

    /// The owner may let other keys mint too (a faucet key, say) without handing over ownership.
    function configureMinter(address minter, bool allowed) external onlyOwner {
        if (minter == address(0)) revert ZeroAddress();
        _minters[minter] = allowed;
        emit MinterConfigured(minter, allowed);
    }

    /// Creates test tokens; this is what the sandbox faucet and funding links call.
    function mint(address to, uint256 value) external {
        if (!_initialized) revert NotInitialized();
        if (!isMinter(msg.sender)) revert NotMinter();
        if (to == address(0)) revert ZeroAddress();
        _totalSupply += value;
        // Cannot overflow: no balance exceeds the total supply, which was checked just above.
        unchecked {
            _balances[to] += value;
        }
        emit Transfer(address(0), to, value);
    }

    // ---- ERC-20 ------------------------------------------------------------------------------

    function name() external view returns (string memory) {
        return _name;
    }

    function symbol() external view returns (string memory) {
        return _symbol;
    }

    function decimals() external view returns (uint8) {
        return _decimals;
    }

    /// Circle's tokens expose their EIP-712 version, and x402 facilitators read it.
    function version() external pure returns (string memory) {
        return DOMAIN_VERSION;
    }

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return _allowances[holder][spender];
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        _approve(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = _allowances[from][msg.sender];
        // An allowance of 2^256-1 means "unlimited" and is never spent down, as in most tokens.
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(from, msg.sender, allowed, value);
            unchecked {
                _allowances[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert ZeroAddress();
        uint256 balance = _balances[from];
        if (balance < value) revert InsufficientBalance(from, balance, value);
        unchecked {
            _balances[from] = balance - value;
            _balances[to] += value;
        }
        emit Transfer(from, to, value);
    }

    function _approve(address holder, address spender, uint256 value) private {
        if (holder == address(0) || spender == address(0)) revert ZeroAddress();
        _allowances[holder][spender] = value;
        emit Approval(holder, spender, value);
    }

    // ---- EIP-712 -----------------------------------------------------------------------------

    /// Computed on every call rather than cached: the name lives in storage and the same code may
    /// run on chains with different ids (sandbox 137, a fork, a test chain).
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(
                EIP712_DOMAIN_TYPEHASH,
                keccak256(bytes(_name)),
                keccak256(bytes(DOMAIN_VERSION)),
                block.chainid,
                address(this)
            )
        );
    }

    /// EIP-5267, so that clients such as viem's getEip712Domain can discover the domain.
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name_,
            string memory version_,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", _name, DOMAIN_VERSION, block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    function _typedDataDigest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    // ---- Signature checking ------------------------------------------------------------------

    function _recover(bytes32 digest, uint8 v, bytes32 r, bytes32 s) private pure returns (address) {
        // Reject malleable signatures (high s, or v other than 27/28) as Circle's tokens do.
        if (uint256(s) > SECP256K1_HALF_ORDER) return address(0);
        if (v != 27 && v != 28) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// The bytes form: a 65-byte ECDSA signature (r, s, v) from an externally owned account, or
    /// anything that a contract signer accepts through ERC-1271.
    function _requireSignature(address signer, bytes32 digest, bytes memory signature) private view {
        if (signature.length == 65) {
            bytes32 r;
            bytes32 s;
            uint8 v;
            assembly {
                r := mload(add(signature, 0x20))
                s := mload(add(signature, 0x40))
                v := byte(0, mload(add(signature, 0x60)))
            }
            address recovered = _recover(digest, v, r, s);
            if (recovered != address(0) && recovered == signer) return;
        }
        if (signer.code.length > 0) {
            (bool ok, bytes memory answer) =
                signer.staticcall(abi.encodeWithSelector(ERC1271_MAGIC_VALUE, digest, signature));
            if (ok && answer.length >= 32 && abi.decode(answer, (bytes4)) == ERC1271_MAGIC_VALUE) return;
        }
        revert InvalidSignature();
    }

    // ---- EIP-2612 permit ---------------------------------------------------------------------

    function nonces(address holder) external view returns (uint256) {
        return _permitNonces[holder];
    }

    function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
    {
        _requireSignature(holder, _permitDigest(holder, spender, value, deadline), abi.encodePacked(r, s, v));
        _approve(holder, spender, value);
    }

    function permit(address holder, address spender, uint256 value, uint256 deadline, bytes calldata signature)
        external
    {
        _requireSignature(holder, _permitDigest(holder, spender, value, deadline), signature);
        _approve(holder, spender, value);
    }

    /// Checks the deadline and consumes the holder's next nonce, so a permit works exactly once.
    function _permitDigest(address holder, address spender, uint256 value, uint256 deadline)
        private
        returns (bytes32)
    {
        if (deadline < block.timestamp) revert PermitExpired(deadline);
        uint256 nonce = _permitNonces[holder]++;
        return _typedDataDigest(keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, nonce, deadline)));
    }

    // ---- EIP-3009 ----------------------------------------------------------------------------

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    // Each entry point comes in the (v, r, s) form and the `bytes signature` form of USDC 2.2; the
    // first packs its signature into the second, so both take the same path, ERC-1271 included.

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        _authorizedTransfer(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external {
        _authorizedTransfer(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
    }

    /// Like transferWithAuthorization, but only the payee may submit it, so that a watcher of the
    /// mempool cannot front-run a contract's deposit call with the bare transfer.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (to != msg.sender) revert CallerMustBePayee(msg.sender, to);
        _authorizedTransfer(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v)
        );
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external {
        if (to != msg.sender) revert CallerMustBePayee(msg.sender, to);
        _authorizedTransfer(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes calldata signature) external {
        _cancelAuthorization(authorizer, nonce, signature);
    }

    function _authorizedTransfer(
        bytes32 typeHash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        bytes32 digest = _authorizationDigest(typeHash, from, to, value, validAfter, validBefore, nonce);
        _requireSignature(from, digest, signature);
        _useAuthorization(from, nonce);
        _transfer(from, to, value);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
        _requireSignature(authorizer, _cancelDigest(authorizer, nonce), signature);
        _useAuthorization(authorizer, nonce);
        emit AuthorizationCanceled(authorizer, nonce);
    }

    /// Checks the validity window (both ends exclusive, as EIP-3009 specifies) and builds the digest.
    function _authorizationDigest(
        bytes32 typeHash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce
    ) private view returns (bytes32) {
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid(validAfter);
        if (block.timestamp >= validBefore) revert AuthorizationExpired(validBefore);
        return _typedDataDigest(keccak256(abi.encode(typeHash, from, to, value, validAfter, validBefore, nonce)));
    }

    function _cancelDigest(address authorizer, bytes32 nonce) private view returns (bytes32) {
        return _typedDataDigest(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)));
    }

    /// Marks the nonce used; a used (or cancelled) nonce can never move funds again.
    function _useAuthorization(address authorizer, bytes32 nonce) private {
        if (_authorizationStates[authorizer][nonce]) revert AuthorizationAlreadyUsed(authorizer, nonce);
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationUsed(authorizer, nonce);
    }
}
