// The token ABIs peerpay calls, written out so that viem types every argument. tokenAbi is what
// Circle's USDC and EURC have too (ERC-20, EIP-2612, EIP-3009; the `bytes signature` overloads are
// those of USDC 2.2), so the same calls work on Polygon;
// sandboxTokenAbi adds what only the sandbox token has. test/chain/contract-artifact.test.ts checks
// every entry against the compiled contract, so these cannot drift from the Solidity source.
import { parseAbi } from 'viem';

export const tokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function version() view returns (string)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address holder, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonces(address holder) view returns (uint256)',
  'function permit(address holder, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function permit(address holder, address spender, uint256 value, uint256 deadline, bytes signature)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
]);

export const sandboxTokenAbi = parseAbi([
  'function initialize(string name_, string symbol_, uint8 decimals_, address owner_)',
  'function initialized() view returns (bool)',
  'function owner() view returns (address)',
  'function isMinter(address account) view returns (bool)',
  'function mint(address to, uint256 value)',
  'function configureMinter(address minter, bool allowed)',
  'function transferOwnership(address newOwner)',
  'function eip712Domain() view returns (bytes1 fields, string name_, string version_, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'event Initialized(string name, string symbol, uint8 decimals, address owner)',
  // The sandbox token reverts with these; listing them lets viem name the reason of a failed call.
  'error AlreadyInitialized()',
  'error NotInitialized()',
  'error NotOwner()',
  'error NotMinter()',
  'error ZeroAddress()',
  'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
  'error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)',
  'error InvalidSignature()',
  'error PermitExpired(uint256 deadline)',
  'error AuthorizationNotYetValid(uint256 validAfter)',
  'error AuthorizationExpired(uint256 validBefore)',
  'error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce)',
  'error CallerMustBePayee(address caller, address payee)',
]);

/** Both together: calls to the sandbox token decode its custom errors, and Circle's errors are strings. */
export const fullTokenAbi = [...tokenAbi, ...sandboxTokenAbi] as const;
